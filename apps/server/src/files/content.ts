import { fileTypeFromBuffer } from 'file-type';

// What a file really is, judged by its bytes (file-type), not by its name or the declared type.

const EXECUTABLE_MIME = new Set([
  'application/x-msdownload',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
  'application/x-executable',
  'application/java-archive',
  'application/x-msi',
  'application/x-ms-installer',
]);
const EXECUTABLE_EXTENSIONS =
  /\.(exe|com|bat|cmd|scr|msi|msp|mst|dll|ps1|psm1|psc1|vb|vbs|vbe|js|jse|wsf|wsh|ws|sct|jar|sh|app|apk|cpl|hta|lnk|reg|pif|msc|scf|inf|ins|isp|shb|url|application|appref-ms|gadget|iso|img|vhd|vhdx)$/i;

// Characters that change how a name reads without being seen: zero-width and direction marks
// (`invoice\u202Efdp.exe` shows as `invoiceexe.pdf`), and controls.
const INVISIBLE =
  /[\u0000-\u001f\u007f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff]/g;

/**
 * A file name as it is kept and offered: NFC, without invisible characters, path parts or the
 * trailing dots and spaces that Windows drops (`tool.bat.` opens as `tool.bat`).
 */
export function normaliseFileName(name: string): string {
  const base = name.normalize('NFC').replace(INVISIBLE, '').split(/[\\/]/).pop() ?? '';
  return base.replace(/[.\s]+$/, '').trim();
}

// The declared type must belong to the family the bytes show; Office documents are zip files.
const FAMILIES: Record<string, string[]> = {
  'application/zip': [
    'application/zip',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.oasis.opendocument.text',
  ],
  'application/x-cfb': ['application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-outlook'],
};

export function hasExecutableName(name: string): boolean {
  return EXECUTABLE_EXTENSIONS.test(normaliseFileName(name));
}

const extensionOf = (name: string) => /\.[^.]+$/.exec(name)?.[0].toLowerCase() ?? '';

/**
 * The name a download is offered under. A link may rename it (`?fileName=`), but only to a clean
 * name with the stored file's extension: else a link could offer a PDF as `invoice.pdf.exe`.
 */
export function downloadName(stored: string, requested: string | undefined): string {
  if (!requested) return stored;
  const name = normaliseFileName(requested);
  if (!name || hasExecutableName(name) || extensionOf(name) !== extensionOf(stored)) return stored;
  return name;
}

const IMAGES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/tiff'];
const OFFICE = [
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.text',
  'application/rtf',
  'text/rtf',
];

/**
 * What each kind of file field takes, by the checked content type (what the bytes are, not the
 * name): an authority is a signed form, scanned or as PDF; a request's, result's or invoice's file
 * a document. Anything else (archives, HTML, unknown bytes) is refused where it is attached.
 */
export const FILE_KINDS = {
  authority: { types: ['application/pdf', ...IMAGES], label: 'a PDF or an image' },
  document: {
    types: ['application/pdf', ...IMAGES, ...OFFICE, 'text/plain', 'text/csv'],
    label: 'a PDF, an image, an office document or plain text',
  },
} as const;
export type FileKind = keyof typeof FILE_KINDS;

/** Undefined when a file of this content type will do for the kind, else why not. */
export function refusedForKind(kind: FileKind, contentType: string): string | undefined {
  const accepted: readonly string[] = FILE_KINDS[kind].types;
  return accepted.includes(contentType.toLowerCase())
    ? undefined
    : `This field takes ${FILE_KINDS[kind].label}.`;
}

export type ContentVerdict = { ok: true; contentType: string } | { ok: false; reason: string };

/** Checks the first bytes of an upload against the type it was declared with. */
export async function checkContent(head: Buffer, declaredType: string): Promise<ContentVerdict> {
  if (head.subarray(0, 2).toString('latin1') === '#!') {
    return { ok: false, reason: 'Executable files are not allowed.' };
  }
  const detected = await fileTypeFromBuffer(head);
  if (detected && EXECUTABLE_MIME.has(detected.mime))
    return { ok: false, reason: 'Executable files are not allowed.' };
  const [mediaType = ''] = declaredType.toLowerCase().split(';');
  const declared = mediaType.trim();
  if (!detected) {
    // No signature: only text may have none, and text has no NUL bytes.
    if (declared.startsWith('text/') || declared === 'application/json' || declared === 'text/csv') {
      return head.includes(0)
        ? { ok: false, reason: `The content is not ${declared}.` }
        : { ok: true, contentType: declared };
    }
    if (declared === 'application/octet-stream') return { ok: true, contentType: declared };
    return { ok: false, reason: `The content does not match the type ${declared}.` };
  }
  if (detected.mime === declared || FAMILIES[detected.mime]?.includes(declared))
    return { ok: true, contentType: declared };
  if (declared === 'application/octet-stream') return { ok: true, contentType: detected.mime };
  return { ok: false, reason: `The content is ${detected.mime}, not ${declared}.` };
}

/** Types a browser may show inline; everything else is always downloaded. */
export function isInlineSafe(contentType: string): boolean {
  return /^(application\/pdf|image\/(png|jpeg|gif|webp)|text\/plain)$/.test(contentType);
}
