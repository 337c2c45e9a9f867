import { safeHref } from '@dossier/core';
import { Parser } from 'htmlparser2';

// The HTML part of an incoming message is shown on the inbox page, so it is cut down to an allow
// list before it is stored: structural and text tags only, links with safe targets (anything else
// becomes about:blank), no attributes besides href, and nothing at all from scripts, styles or
// embedded documents. What is not on the list is dropped but its text is kept.

const ALLOWED = new Set([
  'p',
  'br',
  'div',
  'span',
  'b',
  'strong',
  'i',
  'em',
  'u',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'blockquote',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'code',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'td',
  'th',
]);
const VOID = new Set(['br', 'hr']);
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'title',
]);

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (text: string) => escapeText(text).replace(/"/g, '&quot;');

export function sanitizeEmailHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (dropping > 0) {
          if (!VOID.has(name)) dropping += 1;
          return;
        }
        if (DROP_WITH_CONTENT.has(name)) {
          dropping = 1;
          return;
        }
        if (!ALLOWED.has(name)) return;
        if (name === 'a') {
          out.push(
            `<a href="${escapeAttr(safeHref(attrs.href ?? ''))}" rel="noopener noreferrer" target="_blank">`,
          );
        } else out.push(`<${name}>`);
        if (!VOID.has(name)) open.push(name);
      },
      ontext(text) {
        if (dropping === 0) out.push(escapeText(text));
      },
      onclosetag(name) {
        if (dropping > 0) {
          if (!VOID.has(name)) dropping -= 1;
          return;
        }
        if (!ALLOWED.has(name) || VOID.has(name)) return;
        const at = open.lastIndexOf(name);
        if (at < 0) return;
        // Close what was left open inside, so the output is always well nested.
        while (open.length > at) out.push(`</${open.pop()}>`);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

const BREAKS = new Set([
  'br',
  'p',
  'div',
  'li',
  'tr',
  'blockquote',
  'pre',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
]);

/**
 * The text of a message's HTML, for pages that show received mail as text. Done here rather than
 * in the browser: a browser's HTML parser (DOMParser included) compiles the event handlers of what
 * it parses, so markup from a stranger must never reach it, not even to read its text.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name) {
        if (dropping > 0) {
          if (!VOID.has(name)) dropping += 1;
        } else if (DROP_WITH_CONTENT.has(name)) dropping = 1;
        else if (name === 'br' || name === 'hr') out.push('\n');
      },
      ontext(text) {
        if (dropping === 0) out.push(text);
      },
      onclosetag(name) {
        if (dropping > 0) {
          if (!VOID.has(name)) dropping -= 1;
        } else if (BREAKS.has(name) && !VOID.has(name)) out.push('\n');
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  return out
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
