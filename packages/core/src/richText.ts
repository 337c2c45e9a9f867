// Rich text is stored as a TipTap (ProseMirror) JSON document limited to the blocks and styles of
// the specification. The same sanitizer runs on the server before storing and in the browser
// before rendering, so a document from anywhere renders safely.

export type RichTextMark =
  | { type: 'bold' }
  | { type: 'italic' }
  | { type: 'underline' }
  | { type: 'link'; attrs: { href: string } };

export interface RichTextNode {
  type: string;
  attrs?: Record<string, unknown>;
  content?: RichTextNode[];
  text?: string;
  marks?: RichTextMark[];
}

export interface RichTextDoc {
  type: 'doc';
  content: RichTextNode[];
}

export const MAX_LIST_DEPTH = 4;
const BLOCKS = new Set(['paragraph', 'heading', 'bulletList', 'orderedList', 'listItem', 'blockquote']);
const INLINE = new Set(['text', 'hardBreak', 'image']);
const SIMPLE_MARKS = new Set(['bold', 'italic', 'underline']);

export function emptyRichText(): RichTextDoc {
  return { type: 'doc', content: [] };
}

/** Addresses that start with javascript: (or anything but https, http and mailto) become about:blank. */
export function safeHref(href: unknown): string {
  if (typeof href !== 'string') return 'about:blank';
  // Browsers ignore control characters and spaces inside a scheme, so strip them before checking.
  const compact = href.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
  if (compact.startsWith('javascript:')) return 'about:blank';
  if (/^(https?:|mailto:)/.test(compact) || compact.startsWith('/')) return href.trim();
  return 'about:blank';
}

function cleanMarks(marks: unknown): RichTextMark[] | undefined {
  if (!Array.isArray(marks)) return undefined;
  const out: RichTextMark[] = [];
  for (const mark of marks) {
    if (!mark || typeof mark !== 'object') continue;
    const type = (mark as { type?: unknown }).type;
    if (typeof type === 'string' && SIMPLE_MARKS.has(type)) out.push({ type } as RichTextMark);
    if (type === 'link') {
      const href = (mark as { attrs?: { href?: unknown } }).attrs?.href;
      out.push({ type: 'link', attrs: { href: safeHref(href) } });
    }
  }
  return out.length > 0 ? out : undefined;
}

function cleanNode(node: unknown, listDepth: number): RichTextNode | undefined {
  if (!node || typeof node !== 'object') return undefined;
  const { type, attrs, content, text, marks } = node as RichTextNode;
  if (type === 'text') {
    if (typeof text !== 'string' || text.length === 0) return undefined;
    const cleaned = cleanMarks(marks);
    return cleaned ? { type, text, marks: cleaned } : { type, text };
  }
  if (type === 'hardBreak') return { type };
  if (type === 'image') return { type, attrs: { src: safeHref(attrs?.src), alt: String(attrs?.alt ?? '') } };
  if (!BLOCKS.has(type)) return undefined;
  const isList = type === 'bulletList' || type === 'orderedList';
  const depth = isList ? listDepth + 1 : listDepth;
  if (depth > MAX_LIST_DEPTH) return undefined;
  const children = Array.isArray(content)
    ? content.map((child) => cleanNode(child, depth)).filter((c): c is RichTextNode => c !== undefined)
    : [];
  const out: RichTextNode = { type, content: children };
  if (type === 'heading') {
    const level = Number(attrs?.level);
    out.attrs = { level: level >= 1 && level <= 3 ? level : 1 };
  }
  return out;
}

/** Keeps only what the rich text model allows; anything unparseable becomes an empty document. */
export function sanitizeRichText(value: unknown): RichTextDoc {
  const doc = typeof value === 'string' ? tryParseJson(value) : value;
  if (!doc || typeof doc !== 'object' || (doc as RichTextNode).type !== 'doc') return emptyRichText();
  const content = (doc as RichTextNode).content;
  if (!Array.isArray(content)) return emptyRichText();
  return {
    type: 'doc',
    content: content
      .map((child) => cleanNode(child, 0))
      .filter((c): c is RichTextNode => c !== undefined && !INLINE.has(c.type)),
  };
}

/** True when the value is not a rich text document at all (the caller logs it). */
export function isUnparseableRichText(value: unknown): boolean {
  const doc = typeof value === 'string' ? tryParseJson(value) : value;
  return !doc || typeof doc !== 'object' || (doc as RichTextNode).type !== 'doc';
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A small builder for documents written in code (defaults, demo data). */
export function richTextFromParagraphs(...paragraphs: string[]): RichTextDoc {
  return {
    type: 'doc',
    content: paragraphs.map((p) => ({ type: 'paragraph', content: [{ type: 'text', text: p }] })),
  };
}
