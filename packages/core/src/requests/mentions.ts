import type { RichTextNode } from '../richText.js';

// Mentions in notes are written into the text as `@[Display Name](userId)`: plain text survives the
// rich text sanitizer unchanged, so what the server reads is exactly what the editor wrote. The
// server notifies each mentioned user; displays render the token as "@Display Name".

const TOKEN = /@\[([^\]\n]{1,200})\]\(([^)\s]{1,100})\)/g;

export function mentionToken(name: string, userId: string): string {
  return `@[${name.replace(/[[\]\n]/g, ' ')}](${userId})`;
}

export interface MentionPart {
  text: string;
  /** Set when this part is a mention. */
  userId?: string;
}

/** Splits text into plain parts and mentions, for display. */
export function splitMentions(text: string): MentionPart[] {
  const parts: MentionPart[] = [];
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > last) parts.push({ text: text.slice(last, index) });
    const [token, name, userId] = match;
    // Both groups always match when the token does.
    parts.push(userId === undefined ? { text: token } : { text: `@${name}`, userId });
    last = index + token.length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** The distinct user ids mentioned anywhere in a rich text document (or plain text). */
export function mentionedUserIds(value: RichTextNode | string): string[] {
  const ids = new Set<string>();
  const visit = (node: RichTextNode | string) => {
    if (typeof node === 'string') {
      for (const [, , id] of node.matchAll(TOKEN)) if (id) ids.add(id);
      return;
    }
    if (typeof node.text === 'string') visit(node.text);
    for (const child of node.content ?? []) visit(child);
  };
  visit(value);
  return [...ids];
}

/** The plain text of a rich text document, paragraphs separated by blank lines, mentions as @Name. */
export function richTextPlain(node: RichTextNode): string {
  if (typeof node.text === 'string')
    return splitMentions(node.text)
      .map((p) => p.text)
      .join('');
  const children = (node.content ?? []).map(richTextPlain);
  return node.type === 'doc' || node.type.endsWith('List') ? children.join('\n') : children.join('');
}
