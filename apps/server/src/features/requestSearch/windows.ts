// The months a full-text search asks for its words in, a window at a time (migration 20261201_0001):
// the newest matches are found in the newest months, so a search that has its page and the count's
// cap after a few windows never takes the older matches from the heap. A month is a number, the UTC
// year × 12 + the month − 1, as request_month_words numbers it; requests_fulltext_month_idx holds
// each word of a request as '<month>~<word>'.

/** The month of an instant, as request_month_words numbers it. */
export const monthOf = (at: Date): number => at.getUTCFullYear() * 12 + at.getUTCMonth();

/**
 * A quoted operand of a tsquery in its text form (a doubled quote stands for a quote), with its
 * prefix mark if it has one, or an AND between operands.
 */
const OPERAND = /'((?:[^']|'')*)'(:\*)?/g;
const OPERAND_OR_AND = /'((?:[^']|'')*)'(:\*)?|&/g;

/**
 * Whether a tsquery (its text form) can be asked within months: its words joined by & and | only.
 * The month index holds no positions, so a phrase (<->, from a hyphenated word) would never match,
 * and an empty query matches nothing anyway.
 */
export const windowable = (tsquery: string): boolean =>
  /'/.test(tsquery) && !/[<!]/.test(tsquery.replace(OPERAND, ''));

/**
 * The tsquery within a month: each word of it as the month index spells it. A window asks for each of
 * its months apart, ORed in SQL, so PostgreSQL scans the index once per month (a BitmapOr) with that
 * month's few words: one tsquery ORing all months made GIN test every candidate against every
 * month's words, three times slower for a window of seven months.
 */
export const withinMonth = (tsquery: string, month: number): string =>
  tsquery.replace(OPERAND, (_, word: string, prefix = '') => `'${month}~${word}'${prefix}`);

/** Databases of up to this many requests are searched in one statement: a window would save little. */
export const WINDOW_REQUESTS = 100_000;

/** Spare matches a window is sized for, over those still wanted: the estimate is only an estimate. */
const SPARE = 1.25;

export interface SearchSpan {
  /** The months of the newest and oldest requests the search may find. */
  newest: number;
  oldest: number;
  /** About how many requests there are in all (the planner's estimate). */
  requests: number;
}

/**
 * The share of requests holding each word, from the statistics ANALYZE keeps of the full-text
 * index's most common words (pg_stats.most_common_elems); `floor` is the share of the least common
 * of them, which a word not among them has less than.
 */
export interface WordShares {
  words: Map<string, number>;
  floor: number;
}

/**
 * About what share of requests a tsquery of words joined by & and | matches (windowable), as
 * PostgreSQL estimates it: the words of an AND independent, those of an OR (the spelt-out prefix)
 * added up. A word not among the common ones counts half the floor; a prefix left as a prefix, or
 * any word without statistics, counts as every request: the windows then start small.
 */
export function shareOf(tsquery: string, shares: WordShares | undefined): number {
  let share = 1;
  // The share of the operands since the last &: they are ORed.
  let any = 0;
  for (const [token, word = '', prefix] of tsquery.matchAll(OPERAND_OR_AND)) {
    if (token === '&') {
      share *= Math.min(1, any);
      any = 0;
      continue;
    }
    const known = shares?.words.get(word.replace(/''/g, "'").replace(/\\\\/g, '\\'));
    any += prefix || !shares ? 1 : (known ?? shares.floor / 2);
  }
  return share * Math.min(1, any);
}

/**
 * How many months the first window holds: enough for the matches wanted with a quarter to spare, by
 * the share of requests the words match. Undefined when windows would not pay: up to WINDOW_REQUESTS
 * requests, or when the first window would hold more than a quarter of the span. A window scans the
 * index once per month (about 0.1 ms each), which costs more than it saves unless it spares the heap
 * three quarters of the matches: at 1,000,000 requests "olivia harbour" would take 21 of 36 months,
 * and its 433 matches cost no more from the heap in one statement.
 */
export function firstWindow(
  span: SearchSpan,
  share: number,
  wanted: number,
  windowRequests = WINDOW_REQUESTS,
): number | undefined {
  const months = span.newest - span.oldest + 1;
  if (months <= 1 || span.requests <= windowRequests) return undefined;
  const perMonth = (span.requests * share) / months;
  const size = Math.max(1, Math.ceil((wanted * SPARE) / perMonth));
  return size * 4 > months ? undefined : size;
}

/**
 * Windows of months, newest first, without gaps, until `found()` reaches `wanted` or the span ends.
 * After a window the next one is sized by the matches found per month so far to hold what is still
 * wanted, with a quarter to spare (never smaller than the one before); after windows without a
 * match, four times the last. A search whose first window held what the statistics promised takes
 * that window alone, each window reading only its own matches from the heap.
 */
export function* searchWindows(
  span: SearchSpan,
  first: number,
  found: () => number,
  wanted: number,
): Generator<number[]> {
  let newest = span.newest;
  let size = first;
  let covered = 0;
  while (newest >= span.oldest && found() < wanted) {
    const oldest = Math.max(span.oldest, newest - size + 1);
    yield Array.from({ length: newest - oldest + 1 }, (_, i) => newest - i);
    covered += newest - oldest + 1;
    newest = oldest - 1;
    const sofar = found();
    size = sofar > 0 ? Math.max(size, Math.ceil(((wanted - sofar) * covered * SPARE) / sofar)) : size * 4;
  }
}
