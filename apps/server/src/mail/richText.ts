import { type RichTextDoc, type RichTextNode, safeHref, sanitizeRichText } from '@dossier/core';
import { escapeHtml } from './outbox.js';

// Rich text (a sanitized TipTap document) as the two parts of an email: HTML and plain text.

/**
 * A mail is read outside the app, where a path leads nowhere: links a template wrote as a path
 * ("/help", "/requests/…") get the app's address in front.
 */
export function withAbsoluteLinks(doc: RichTextDoc, baseUrl: string): RichTextDoc {
  const absolute = (href: string) =>
    href.startsWith('/') && !href.startsWith('//') ? `${baseUrl}${href}` : href;
  const walk = (node: RichTextNode): RichTextNode => ({
    ...node,
    ...(node.marks
      ? {
          marks: node.marks.map((m) =>
            m.type === 'link' ? { ...m, attrs: { href: absolute(m.attrs.href) } } : m,
          ),
        }
      : {}),
    ...(node.content ? { content: node.content.map(walk) } : {}),
  });
  return { ...doc, content: doc.content.map(walk) };
}

function inlineHtml(node: RichTextNode): string {
  if (node.type === 'hardBreak') return '<br>';
  if (node.type !== 'text') return (node.content ?? []).map(inlineHtml).join('');
  let html = escapeHtml(node.text ?? '');
  for (const mark of node.marks ?? []) {
    if (mark.type === 'bold') html = `<strong>${html}</strong>`;
    if (mark.type === 'italic') html = `<em>${html}</em>`;
    if (mark.type === 'underline') html = `<u>${html}</u>`;
    if (mark.type === 'link') html = `<a href="${escapeHtml(safeHref(mark.attrs.href))}">${html}</a>`;
  }
  return html;
}

const BLOCK_TAGS: Record<string, string> = {
  paragraph: 'p',
  bulletList: 'ul',
  orderedList: 'ol',
  listItem: 'li',
  blockquote: 'blockquote',
};

function blockHtml(node: RichTextNode): string {
  if (node.type === 'heading') {
    const level = Number(node.attrs?.level ?? 1);
    return `<h${level}>${(node.content ?? []).map(inlineHtml).join('')}</h${level}>`;
  }
  const tag = BLOCK_TAGS[node.type];
  if (!tag) return inlineHtml(node);
  const inner =
    node.type === 'paragraph'
      ? (node.content ?? []).map(inlineHtml).join('')
      : (node.content ?? []).map(blockHtml).join('');
  return `<${tag}>${inner}</${tag}>`;
}

function blockText(node: RichTextNode, depth = 0): string {
  if (node.type === 'text') {
    const link = node.marks?.find((m) => m.type === 'link');
    const href = link?.type === 'link' ? safeHref(link.attrs.href) : undefined;
    return href && href !== node.text ? `${node.text} (${href})` : (node.text ?? '');
  }
  if (node.type === 'hardBreak') return '\n';
  if (node.type === 'bulletList' || node.type === 'orderedList') {
    return (node.content ?? [])
      .map(
        (item, i) =>
          `${'  '.repeat(depth)}${node.type === 'orderedList' ? `${i + 1}.` : '-'} ${blockText(item, depth + 1).trim()}`,
      )
      .join('\n');
  }
  const inner = (node.content ?? [])
    .map((child) => blockText(child, depth))
    .join(node.type === 'listItem' ? '\n' : '');
  return node.type === 'blockquote' ? inner.replace(/^/gm, '> ') : inner;
}

export function richTextToHtml(doc: RichTextDoc | unknown): string {
  return sanitizeRichText(doc).content.map(blockHtml).join('\n');
}

export function richTextToText(doc: RichTextDoc | unknown): string {
  return sanitizeRichText(doc)
    .content.map((node) => blockText(node))
    .join('\n\n');
}
