import { type AddressObject, simpleParser } from 'mailparser';
import { sanitizeEmailHtml } from './sanitizeHtml.js';

// Turns the raw bytes of an incoming message into what the inbox keeps. mailparser is lenient, so a
// message that is not usable (no sender, no headers at all) is answered as flagged with the reason,
// not thrown: the caller keeps the raw message either way.

export interface ParsedAddress {
  displayName?: string;
  email: string;
}

export interface ParsedAttachment {
  name: string;
  contentType: string;
  content: Buffer;
}

export interface ParsedIncoming {
  messageId: string | null;
  inReplyTo: string | null;
  references: string[];
  from: ParsedAddress | null;
  to: ParsedAddress[];
  subject: string;
  text: string;
  html: string | null;
  attachments: ParsedAttachment[];
  /** Why the message cannot be worked like any other; null when it can. */
  flagReason: string | null;
}

const MAX_TEXT = 1_000_000;
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

function addresses(value: AddressObject | AddressObject[] | undefined): ParsedAddress[] {
  const list = Array.isArray(value) ? value : value ? [value] : [];
  return list
    .flatMap((a) => a.value)
    .filter((a) => a.address && EMAIL.test(a.address))
    .map((a) => ({ email: (a.address as string).toLowerCase(), ...(a.name ? { displayName: a.name } : {}) }))
    .slice(0, 100);
}

/** A message id in angle brackets, as we write them in our own mail; null when absent. */
function messageIdOf(value: string | undefined): string | null {
  const id = value?.trim();
  if (!id) return null;
  return (id.startsWith('<') ? id : `<${id}>`).slice(0, 500);
}

export async function parseIncoming(raw: Buffer): Promise<ParsedIncoming> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  } catch (error) {
    return unparsed(
      `The message could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const from = addresses(mail.from)[0] ?? null;
  const references = (
    Array.isArray(mail.references) ? mail.references : mail.references ? [mail.references] : []
  )
    .map((r) => messageIdOf(r))
    .filter((r): r is string => r !== null)
    .slice(0, 50);
  let flagReason: string | null = null;
  if (mail.headerLines.length === 0) flagReason = 'The message has no headers.';
  else if (!from) flagReason = 'The message has no valid sender address.';
  return {
    messageId: messageIdOf(mail.messageId),
    inReplyTo: messageIdOf(mail.inReplyTo),
    references,
    from,
    to: addresses(mail.to),
    subject: (mail.subject ?? '').slice(0, 1000),
    text: (mail.text ?? '').slice(0, MAX_TEXT),
    html: mail.html ? sanitizeEmailHtml(mail.html.slice(0, MAX_TEXT * 2)) : null,
    attachments: mail.attachments.map((a, i) => ({
      name: (a.filename ?? `attachment-${i + 1}`).replace(/[\\/\r\n]/g, '_').slice(0, 300),
      contentType: (a.contentType || 'application/octet-stream').toLowerCase().slice(0, 200),
      content: a.content,
    })),
    flagReason,
  };
}

/** What is kept of a message that was too large to read or could not be read at all. */
export function unparsed(reason: string): ParsedIncoming {
  return {
    messageId: null,
    inReplyTo: null,
    references: [],
    from: null,
    to: [],
    subject: '',
    text: '',
    html: null,
    attachments: [],
    flagReason: reason,
  };
}
