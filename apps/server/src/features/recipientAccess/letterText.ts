import type { RichTextDoc } from '@dossier/core';
import type { NewAccess } from './access.js';

// The placeholders request.recipientAccess.url and .passcode (issue 34). The link exists only once
// the request is issued, so a template renders them as markers the handler reads in the panel
// (letterData.ts), and issuing fills them in (the placeholders typed as such too). By email the passcode never travels with the link: it says where the passcode is instead.
// A letter whose text has no link gets a closing paragraph with it.

export const URL_MARK = "[link to the recipient's page]";
export const PASSCODE_MARK = "[passcode of the recipient's page]";
const URL_PLACEHOLDER = '${request.recipientAccess.url}';
const PASSCODE_PLACEHOLDER = '${request.recipientAccess.passcode}';
const SEPARATE = 'sent to you in a separate mail';

function replaceText(node: unknown, replace: (text: string) => string): unknown {
  if (!node || typeof node !== 'object') return node;
  const n = node as { text?: unknown; content?: unknown[] };
  return {
    ...n,
    ...(typeof n.text === 'string' ? { text: replace(n.text) } : {}),
    ...(Array.isArray(n.content) ? { content: n.content.map((c) => replaceText(c, replace)) } : {}),
  };
}

export function fillAccessPlaceholders(
  doc: RichTextDoc,
  access: NewAccess | undefined,
  method: string,
): RichTextDoc {
  const passcode = !access ? '' : method === 'email' ? SEPARATE : access.passcode;
  let hasUrl = false;
  const filled = replaceText(doc, (text) => {
    const marked = text.split(URL_PLACEHOLDER).join(URL_MARK).split(PASSCODE_PLACEHOLDER).join(PASSCODE_MARK);
    if (marked.includes(URL_MARK)) hasUrl = true;
    return marked
      .split(URL_MARK)
      .join(access?.url ?? '')
      .split(PASSCODE_MARK)
      .join(passcode);
  }) as RichTextDoc;
  if (!access || hasUrl) return filled;
  const closing =
    method === 'email'
      ? `You can answer online: ${access.url} (the passcode is ${SEPARATE}).`
      : `You can answer online: ${access.url} with the passcode ${access.passcode}.`;
  return {
    ...filled,
    content: [...(filled.content ?? []), { type: 'paragraph', content: [{ type: 'text', text: closing }] }],
  } as RichTextDoc;
}
