import { BUSINESS_TIME_ZONE, REQUEST_SEARCH_CAP } from '@dossier/core';
import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { likeContains, likeStartsWith } from '../../db/search.js';
import type { visibleRequests } from '../requests/index.js';
import {
  firstWindow,
  monthOf,
  type SearchSpan,
  searchWindows,
  shareOf,
  type WordShares,
  windowable,
  withinMonth,
} from './windows.js';

// All SQL of the find-requests search. Every condition has an index behind it on 1,000,000 requests
// (migrations 0009 and 0014): the number by its primary key or prefix index, applicant and recipient
// names by trigram, the full text by one GIN index on `search` and the content (migration
// 20261130_0001) with the last word's prefix looked up in request_lexemes (20261130_1001), scope
// and dates by (scope text_pattern_ops, submitted_at). Counting stops at TOTAL_CAP: an exact count of a broad
// search over a million rows costs more than the page itself, and nobody pages through twenty pages
// of hits instead of narrowing the search.

export const TOTAL_CAP = REQUEST_SEARCH_CAP;

/** Submission days are the business's calendar days. */
const TIME_ZONE = BUSINESS_TIME_ZONE;

export interface RequestSearchTerms {
  requestNumber?: string | undefined;
  subject?: string | undefined;
  recipient?: string | undefined;
  /** YYYY-MM-DD, inclusive. */
  submittedAtFrom?: string | undefined;
  /** YYYY-MM-DD, inclusive: the whole day counts. */
  submittedAtTo?: string | undefined;
  scope?: string | undefined;
  /** A prefix tsquery (word:* & …), already built from the user's words. */
  tsquery?: string | undefined;
}

/** The words of a query built by toPrefixQuery ('a' & 'b':*): none contains '&'. */
const wordsOf = (tsquery: string) => tsquery.split(' & ');

/**
 * The expression of requests_fulltext_idx: a query must spell it the same for the index to serve.
 * Every word must occur in the request's columns or in what it asks for (content_search, kept from
 * the content by a trigger: migration 20261128_1001); both are matched together through one GIN index
 * (migration 20261130_0001), which answers the whole query inside the index.
 */
const FULL_TEXT = sql`(search || coalesce(content_search, ''::tsvector))`;

/** The expression of requests_fulltext_month_idx: the same words, each with its request's month. */
const MONTH_WORDS = sql`request_month_words(search || coalesce(content_search, ''::tsvector), submitted_at)`;

type Filter = (eb: ExpressionBuilder<Database, 'requests'>) => ReturnType<typeof sql<SqlBool>>;

/**
 * At most this many lexemes stand in for the last word's prefix: an OR of more, common ones among them,
 * gains little over GIN's own prefix match, and the query only grows.
 */
const EXPANSION_MAX = 50;

/**
 * A last word that may stand for the lexemes starting with it: ASCII letters and digits only (tested
 * before lowercasing: JavaScript lowercases some non-ASCII letters, the Kelvin sign say, to ASCII
 * ones), which also need no LIKE escapes. Hyphens, dots, '@' or other letters keep their `:*`.
 */
const PLAIN_LAST_WORD = /^'([A-Za-z0-9]{1,100})':\*$/;

/**
 * A lexeme as a tsquery operand, taken literally, spelt as PostgreSQL writes a tsquery out (quotes
 * and backslashes doubled), so the whole query reads as one text (windows.ts rewrites its operands).
 */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * The tsquery of the search in its text form, or 'none' when it can match nothing, and, where there
 * are requests, the months they were submitted in.
 */
interface FullText {
  tsquery: string | 'none';
  span: SearchSpan | undefined;
}

/**
 * What the full-text query matches, as the index can answer it fastest. GIN matches a prefix by
 * collecting every request holding any lexeme with that prefix into a bitmap first (10.4 ms for
 * "olivia harbour" at 1,000,000 requests, growing with the data), but ANDs exact words by skipping
 * through their posting lists by the rarest (3.9 ms spelt out; figures in migration 20261130_1001).
 * The last word's prefix is therefore spelt out as the lexemes it stands for, read from
 * request_lexemes (every lexeme of every request, kept by triggers: migration 20261130_1001):
 * `'olivia' & ('harbour' | 'harbourside')` matches the same requests as `'olivia' & 'harbour':*`.
 * The same statement parses the words and reads the span of submission months the search's windows
 * cover (windows.ts).
 */
async function fullTextQuery(db: DbOrTrx, query: string): Promise<FullText> {
  const words = wordsOf(query);
  const word = PLAIN_LAST_WORD.exec(words.at(-1) ?? '')?.[1]?.toLowerCase();
  const rest = words.slice(0, -1).join(' & ');
  // Even such a word is not always one lexeme to to_tsquery ('2e5x' is '2e5':* <-> 'x':*, a number in
  // scientific notation and a word): only where it parses to itself are the two the same. The
  // oldest and newest submissions are read from the ends of requests_submitted_idx; the number of
  // requests is the planner's estimate, enough to size the windows.
  const found = await sql<{
    whole: string;
    rest: string | null;
    parsed: string | null;
    lexemes: string[] | null;
    requests: number;
    oldest: Date | null;
    newest: Date | null;
  }>`
    select to_tsquery('simple', ${query})::text as whole,
      ${rest === '' ? sql`''` : sql`to_tsquery('simple', ${rest})::text`} as rest,
      ${word === undefined ? sql`null` : sql`to_tsquery('simple', ${`'${word}':*`})::text`} as parsed,
      ${
        word === undefined
          ? sql`null`
          : sql`array(select lexeme from request_lexemes where lexeme like ${likeStartsWith(word)}
              order by lexeme limit ${EXPANSION_MAX + 1})`
      } as lexemes,
      (select reltuples from pg_class where oid = 'requests'::regclass)::float8 as requests,
      (select min(submitted_at) from requests) as oldest,
      greatest((select max(submitted_at) from requests), now()) as newest`.execute(db);
  const row = found.rows[0];
  if (!row) return { tsquery: 'none', span: undefined };
  const span =
    row.oldest && row.newest
      ? { oldest: monthOf(row.oldest), newest: monthOf(row.newest), requests: row.requests }
      : undefined;
  const { parsed, lexemes } = row;
  if (word === undefined || parsed !== `'${word}':*` || !lexemes || lexemes.length > EXPANSION_MAX)
    return { tsquery: row.whole, span };
  // The lookup is a statement of its own, so a request committed between it and the search may hold a
  // new word of that prefix and be missed: as if the search had run a moment earlier for that word.
  if (lexemes.length === 0) return { tsquery: 'none', span };
  // The lexemes are taken as they are: to_tsquery would parse each again (a hyphenated one into its
  // parts). An empty rest (words the parser drops, '-' say) leaves the last word alone, as && does.
  const last = lexemes.map(quoteLexeme).join(' | ');
  return { tsquery: row.rest ? `( ${row.rest} ) & ( ${last} )` : last, span };
}

/** How long the word statistics are kept: ANALYZE renews them when a tenth of the table changed. */
const SHARES_MS = 10 * 60_000;
let kept: { at: number; shares: Promise<WordShares | undefined> } | undefined;

/**
 * The shares of requests holding the most common words, from the statistics of requests_fulltext_idx
 * (most_common_elem_freqs lists the words' frequencies, then the least and the greatest of them), read
 * once per SHARES_MS by each instance. Undefined before the first ANALYZE.
 */
function wordShares(db: DbOrTrx): Promise<WordShares | undefined> {
  if (kept && Date.now() - kept.at < SHARES_MS) return kept.shares;
  const shares = sql<{ words: string[] | null; freqs: number[] | null }>`
    select most_common_elems::text::text[] as words, most_common_elem_freqs::float8[] as freqs
    from pg_stats where schemaname = current_schema() and tablename = 'requests_fulltext_idx'`
    .execute(db)
    .then(({ rows: [row] }) => {
      if (!row?.words || !row.freqs) return undefined;
      const freqs = row.freqs;
      return {
        words: new Map(row.words.map((w, i) => [w, freqs[i] ?? 0])),
        floor: freqs[row.words.length] ?? 0,
      };
    });
  kept = { at: Date.now(), shares };
  // A failed read is not kept: the next search tries again.
  shares.catch(() => {
    kept = undefined;
  });
  return shares;
}

const DAY_MS = 86_400_000;

/**
 * The span narrowed to the submission dates searched, two days wider on each side than the dates
 * (they are days of the business's zone, the months UTC ones). The count of requests shrinks with it.
 */
function withinDates(span: SearchSpan, terms: RequestSearchTerms): SearchSpan {
  const monthNear = (day: string | undefined, days: number) => {
    const at = day === undefined ? Number.NaN : Date.parse(day) + days * DAY_MS;
    return Number.isNaN(at) ? undefined : monthOf(new Date(at));
  };
  const newest = Math.min(span.newest, monthNear(terms.submittedAtTo, 2) ?? span.newest);
  const oldest = Math.max(span.oldest, monthNear(terms.submittedAtFrom, -2) ?? span.oldest);
  const share = (newest - oldest + 1) / (span.newest - span.oldest + 1);
  return { newest, oldest, requests: span.requests * Math.max(0, share) };
}

function conditions(terms: RequestSearchTerms): Filter[] {
  const where: Filter[] = [];
  if (terms.requestNumber) {
    const n = terms.requestNumber;
    where.push(() =>
      n.length === 14
        ? sql<SqlBool>`request_number = ${n}`
        : sql<SqlBool>`request_number like ${likeStartsWith(n)}`,
    );
  }
  if (terms.subject) {
    const term = likeContains(terms.subject);
    where.push(() => sql<SqlBool>`lower(applicant_name) like ${term}`);
  }
  if (terms.recipient) {
    const term = likeContains(terms.recipient);
    where.push(() => sql<SqlBool>`lower(recipient_name) like ${term}`);
  }
  if (terms.submittedAtFrom) {
    const from = terms.submittedAtFrom;
    where.push(() => sql<SqlBool>`submitted_at >= (${from}::date)::timestamp at time zone ${TIME_ZONE}`);
  }
  if (terms.submittedAtTo) {
    // The "to" date counts its whole day: up to the start of the next one.
    const to = terms.submittedAtTo;
    where.push(() => sql<SqlBool>`submitted_at < (${to}::date + 1)::timestamp at time zone ${TIME_ZONE}`);
  }
  if (terms.scope) {
    const scope = likeStartsWith(terms.scope);
    where.push(() => sql<SqlBool>`scope like ${scope}`);
  }
  return where;
}

const HIT_COLUMNS = [
  'request_number',
  'scope',
  'status',
  'applicant_name',
  'recipient_name',
  'submitted_at',
  'closed_at',
  'last_activity_at',
] as const;

const newestFirst = (a: { submitted_at: Date; request_number: string }, b: typeof a) =>
  b.submitted_at.getTime() - a.submitted_at.getTime() || (a.request_number < b.request_number ? 1 : -1);

/**
 * One page of matches, newest first, and their number up to TOTAL_CAP. One filtered read gives the
 * newest TOTAL_CAP + 1 matches (number and date only): PostgreSQL takes them from the index of a
 * selective condition (few matches, sorted after), or walks requests_newest_idx newest first, which
 * carries scope and names so a broad search is checked without reading a row (migration 0027). A
 * full-text search over many requests reads them a window of months at a time, newest first, until
 * it has them (windows.ts): each window's matches are taken from the heap and sorted, not every
 * match of the words. The page is cut from them, and only its rows are read whole, by primary key.
 */
export async function searchRequests(
  db: DbOrTrx,
  visible: ReturnType<typeof visibleRequests>,
  terms: RequestSearchTerms,
  offset: number,
  limit: number,
  /** For tests: windows of this many months first, whatever the size of the database. */
  firstMonths?: number,
) {
  const fullText = terms.tsquery ? await fullTextQuery(db, terms.tsquery) : undefined;
  if (fullText?.tsquery === 'none') return { rows: [], total: 0, capped: false };
  const newestMatches = (match: RawBuilder<SqlBool> | undefined, wanted: number) => {
    let query = db.selectFrom('requests').where(visible);
    for (const condition of conditions(terms)) query = query.where(condition);
    if (match) query = query.where(() => match);
    return query
      .select(['request_number', 'submitted_at'])
      .orderBy('submitted_at', 'desc')
      .orderBy('request_number', 'desc')
      .limit(wanted)
      .execute();
  };
  const wanted = TOTAL_CAP + 1;
  const tsquery = fullText?.tsquery;
  const span =
    tsquery && windowable(tsquery) && fullText.span ? withinDates(fullText.span, terms) : undefined;
  const first =
    tsquery && span
      ? (firstMonths ?? firstWindow(span, shareOf(tsquery, await wordShares(db)), wanted))
      : undefined;
  let matches: Awaited<ReturnType<typeof newestMatches>> = [];
  if (tsquery === undefined) matches = await newestMatches(undefined, wanted);
  else if (!span || first === undefined)
    matches = await newestMatches(sql<SqlBool>`${FULL_TEXT} @@ ${tsquery}::tsquery`, wanted);
  else {
    for (const months of searchWindows(span, first, () => matches.length, wanted)) {
      const within = months.map((m) => sql<SqlBool>`${MONTH_WORDS} @@ ${withinMonth(tsquery, m)}::tsquery`);
      const found = await newestMatches(
        sql<SqlBool>`(${sql.join(within, sql` or `)})`,
        wanted - matches.length,
      );
      matches = matches.concat(found);
    }
  }
  const page = matches.slice(offset, Math.min(offset + limit, TOTAL_CAP)).map((m) => m.request_number);
  const rows =
    page.length === 0
      ? []
      : (
          await db.selectFrom('requests').select(HIT_COLUMNS).where('request_number', 'in', page).execute()
        ).sort(newestFirst);
  return { rows, total: Math.min(matches.length, TOTAL_CAP), capped: matches.length > TOTAL_CAP };
}

/**
 * Highlighted hits of the full-text query for the requests of one page only (ts_headline parses each
 * document, too costly for every match). The markers are control characters, never in user text, so
 * the caller can escape the text and put its own mark-up in their place.
 */
export async function highlightRequests(db: DbOrTrx, requestNumbers: string[], query: string) {
  if (requestNumbers.length === 0) return new Map<string, string>();
  // A word may have matched the columns and another the content: mark every word wherever it is.
  const tsquery = wordsOf(query).join(' | ');
  const rows = await db
    .selectFrom('requests')
    .select([
      'request_number',
      sql<string>`ts_headline('simple',
        request_number || ' ' || applicant_name || ' ' || recipient_name || ' ' ||
        coalesce(reference_number, '') || ' ' ||
        coalesce(applicant ->> 'reference1', '') || ' ' || coalesce(applicant ->> 'reference2', '') || ' ' ||
        coalesce(applicant ->> 'email', '') || ' ' || coalesce(recipient ->> 'email', ''),
        to_tsquery('simple', ${tsquery}),
        'StartSel=' || chr(2) || ', StopSel=' || chr(3) || ', HighlightAll=true') ||
        -- What the request asks for can be long: only the passages that match.
        case when content_search @@ to_tsquery('simple', ${tsquery})
          then ' … ' || ts_headline('simple', request_content_text(content), to_tsquery('simple', ${tsquery}),
            'StartSel=' || chr(2) || ', StopSel=' || chr(3) ||
            ', MaxFragments=2, MaxWords=15, MinWords=5, FragmentDelimiter=" … "')
          else '' end`.as('highlight'),
    ])
    .where('request_number', 'in', requestNumbers)
    .execute();
  return new Map(rows.map((r) => [r.request_number, r.highlight]));
}
