import { type Placeholder, parseTemplate, type TemplatePart } from './placeholders.js';
import { BUSINESS_TIME_ZONE, formatDate, formatDateTime } from './timeZone.js';

// The renderer of template placeholders (syntax in placeholders.ts) over request, task, result,
// invoice and user data.

export interface RenderOptions {
  locale?: string;
  timeZone?: string;
  /** Labels of enumeration values: enums[type][value]. */
  enums?: Record<string, Record<string, string>>;
  /** Display names of ids (users, organisations). */
  names?: Record<string, string>;
  /** How a link is written out (plain text by default: "text (url)" or the url). */
  link?: (href: string, text: string | undefined) => string;
}

function valueAt(data: unknown, path: string): unknown {
  let node = data;
  for (const segment of path.split(/[.:]/)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function isEmpty(value: unknown): boolean {
  return (
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

function plainContent(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!value || typeof value !== 'object') return '';
  const node = value as { text?: string; content?: unknown[]; type?: string };
  const inner = (node.content ?? []).map(plainContent);
  if (node.text) return node.text;
  return inner.join(node.type === 'doc' || node.type?.endsWith('List') ? '\n' : '');
}

function formatValue(value: unknown, p: Placeholder, options: RenderOptions): string {
  if (isEmpty(value)) return '';
  const locale = options.locale ?? 'en-AU';
  const timeZone = options.timeZone ?? BUSINESS_TIME_ZONE;
  switch (p.operation) {
    case 'number':
      return typeof value === 'number' || !Number.isNaN(Number(value))
        ? new Intl.NumberFormat(locale).format(Number(value))
        : String(value);
    case 'date':
      return formatDate(value as string, timeZone, locale);
    case 'date-time':
      return formatDateTime(value as string, { timeZone, locale });
    case 'enum':
      return options.enums?.[p.argument ?? '']?.[String(value)] ?? String(value);
    case 'name':
      return options.names?.[String(value)] ?? String(value);
    case 'content':
      return plainContent(value);
    case 'link': {
      const href = String(value);
      return options.link ? options.link(href, p.argument) : p.argument ? `${p.argument} (${href})` : href;
    }
    case 'list':
      return Array.isArray(value)
        ? value
            .map((v) =>
              v && typeof v === 'object'
                ? String((v as Record<string, unknown>)[p.argument ?? ''] ?? '')
                : String(v),
            )
            .join(', ')
        : String(value);
    default:
      return Array.isArray(value)
        ? value.join(', ')
        : typeof value === 'object'
          ? plainContent(value)
          : String(value);
  }
}

function renderParts(parts: TemplatePart[], data: Record<string, unknown>, options: RenderOptions): string {
  let out = '';
  for (const part of parts) {
    if (part.kind === 'text') out += part.text;
    else if (part.kind === 'value')
      out += formatValue(valueAt(data, part.placeholder.path), part.placeholder, options);
    else {
      const value = valueAt(data, part.placeholder.path);
      if (part.placeholder.operation === 'if-empty') {
        if (isEmpty(value)) out += renderParts(part.body, data, options);
      } else if (Array.isArray(value)) {
        for (const element of value)
          out += renderParts(part.body, { ...data, [part.placeholder.argument ?? 'item']: element }, options);
      }
    }
  }
  return out;
}

/** Renders a template over data; a malformed template renders as written (checkTemplate first). */
export function renderTemplate(
  text: string,
  data: Record<string, unknown>,
  options: RenderOptions = {},
): string {
  const { parts, problems } = parseTemplate(text);
  if (problems.length > 0) return text;
  return renderParts(parts, data, options);
}

/** Renders the placeholders of each text node of a rich text document (blocks within one node). */
export function renderRichTextTemplate<T>(
  doc: T,
  data: Record<string, unknown>,
  options: RenderOptions = {},
): T {
  const visit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const n = node as { text?: string; content?: unknown[] };
    return {
      ...n,
      ...(typeof n.text === 'string' ? { text: renderTemplate(n.text, data, options) } : {}),
      ...(Array.isArray(n.content) ? { content: n.content.map(visit) } : {}),
    };
  };
  return visit(doc) as T;
}

/**
 * As renderRichTextTemplate, but a `link` placeholder becomes a linked text node (its words, or the
 * address) rather than "words (address)": for HTML mail and the rich text read on a screen.
 */
export function renderRichTextTemplateWithLinks<T>(
  doc: T,
  data: Record<string, unknown>,
  options: RenderOptions = {},
): T {
  const links: { href: string; text: string }[] = [];
  // Control characters never survive a template's text, so they mark where a link goes.
  const withMarkers: RenderOptions = {
    ...options,
    link: (href, text) => {
      links.push({ href, text: text ?? href });
      return `\u0001${links.length - 1}\u0002`;
    },
  };
  const split = (node: { text: string; marks?: unknown[] }): unknown[] => {
    const out: unknown[] = [];
    for (const [i, piece] of renderTemplate(node.text, data, withMarkers)
      .split(/\u0001(\d+)\u0002/)
      .entries()) {
      if (i % 2 === 0) {
        if (piece) out.push({ ...node, text: piece });
        continue;
      }
      const link = links[Number(piece)];
      if (!link?.text) continue;
      const marks = [...(node.marks ?? []).filter((m) => (m as { type?: string }).type !== 'link')];
      out.push({ ...node, text: link.text, marks: [...marks, { type: 'link', attrs: { href: link.href } }] });
    }
    return out;
  };
  const visit = (node: unknown): unknown => {
    if (!node || typeof node !== 'object') return node;
    const n = node as { content?: unknown[] };
    if (!Array.isArray(n.content)) return n;
    return {
      ...n,
      content: n.content.flatMap((child) => {
        const c = child as { type?: string; text?: unknown; marks?: unknown[] };
        return c && c.type === 'text' && typeof c.text === 'string'
          ? split(c as { text: string; marks?: unknown[] })
          : [visit(child)];
      }),
    };
  };
  return visit(doc) as T;
}
