// The find-requests terms as they travel: in the address (so a link or the back button repeats the
// search) and in the query of GET /requests/search. Dates are YYYY-MM-DD in both.

export const TERM_NAMES = [
  'requestNumber',
  'subject',
  'recipient',
  'submittedAtFrom',
  'submittedAtTo',
  'scope',
  'q',
] as const;
export type Terms = Record<(typeof TERM_NAMES)[number], string>;

export const EMPTY_TERMS: Terms = Object.fromEntries(TERM_NAMES.map((n) => [n, ''])) as Terms;

/**
 * The server's highlight (escaped text with <mark> around the hits) as text pieces, so it is shown
 * without inserting HTML.
 */
export function highlightPieces(html: string): { text: string; hit: boolean }[] {
  const decode = (s: string) =>
    s
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
  return html
    .split(/(<mark>.*?<\/mark>)/)
    .filter((p) => p.length > 0)
    .map((p) =>
      p.startsWith('<mark>') ? { text: decode(p.slice(6, -7)), hit: true } : { text: decode(p), hit: false },
    );
}
