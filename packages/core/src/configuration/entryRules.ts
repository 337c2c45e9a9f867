import { checkTemplate } from '../placeholders.js';
import { sanitizeRichText } from '../richText.js';

// What the rules of every entry type share (validateEntry.ts) with those of request item types
// (validateItemType.ts), kept apart so neither file needs the other's.

export type EntryFieldErrors = Record<string, string>;

export const REQUIRED = 'Required.';

/** Rich text links may only be https or mailto; anything else becomes about:blank. */
export function sanitizeTemplateRichText(value: unknown) {
  const doc = sanitizeRichText(value);
  const visit = (node: { marks?: { type: string; attrs?: { href: string } }[]; content?: unknown[] }) => {
    for (const mark of node.marks ?? []) {
      if (mark.type === 'link' && mark.attrs && !/^(https:|mailto:)/i.test(mark.attrs.href))
        mark.attrs.href = 'about:blank';
    }
    for (const child of node.content ?? []) visit(child as never);
  };
  visit(doc as never);
  return doc;
}

/** The first problem of a template text, as a message; undefined when it is fine. */
export function templateProblem(texts: string[]): string | undefined {
  for (const text of texts) {
    const problem = checkTemplate(text)[0];
    if (problem) return `${problem.source}: ${problem.message}`;
  }
  return undefined;
}
