import { BUSINESS_TIME_ZONE, REQUEST_SEARCH_CAP } from '@dossier/core';
import { type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { likeContains, likeStartsWith } from '../../db/search.js';
import type { visibleRequests } from '../requests/index.js';

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

/** The expression of requests_fulltext_idx: a query must spell it the same for the index to serve. */
const FULL_TEXT = sql`(search || coalesce(content_search, ''::tsvector))`;

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

/** A lexeme as a tsquery operand, taken literally: tsquery input unescapes a backslash before any character. */
const quoteLexeme = (lexeme: string) => `'${lexeme.replace(/[\\']/g, '\\$&')}'`;

/**
 * What the full-text query matches, as the index can answer it fastest. GIN matches a prefix by
 * collecting every request holding any lexeme with that prefix into a bitmap first (10.4 ms for
 * "olivia harbour" at 1,000,000 requests, growing with the data), but ANDs exact words by skipping
 * through their posting lists by the rarest (3.9 ms spelt out; figures in migration 20261130_1001). The last word's prefix is therefore spelt out as
 * the lexemes it stands for, read from request_lexemes (every lexeme of every request, kept by
 * triggers: migration 20261130_1001): `'olivia' & ('harbour' | 'harbourside')` matches the same
 * requests as `'olivia' & 'harbour':*`. 'none': no request holds a word with that prefix.
 */
async function fullTextQuery(db: DbOrTrx, query: string): Promise<RawBuilder<unknown> | 'none'> {
  const asIs = sql`to_tsquery('simple', ${query})`;
  const words = wordsOf(query);
  const plain = PLAIN_LAST_WORD.exec(words.at(-1) ?? '')?.[1];
  if (plain === undefined) return asIs;
  const word = plain.toLowerCase();
  // Even such a word is not always one lexeme to to_tsquery ('2e5x' is '2e5':* <-> 'x':*, a number in
  // scientific notation and a word): only where it parses to itself are the two the same.
  const found = await sql<{ parsed: string; lexemes: string[] }>`
    select to_tsquery('simple', ${`'${word}':*`})::text as parsed,
      array(select lexeme from request_lexemes where lexeme like ${likeStartsWith(word)}
        order by lexeme limit ${EXPANSION_MAX + 1}) as lexemes`.execute(db);
  const { parsed, lexemes } = found.rows[0] ?? { parsed: '', lexemes: [] };
  if (parsed !== `'${word}':*` || lexemes.length > EXPANSION_MAX) return asIs;
  // The lookup is a statement of its own, so a request committed between it and the search may hold a
  // new word of that prefix and be missed: as if the search had run a moment earlier for that word.
  if (lexemes.length === 0) return 'none';
  // Built in tsquery's own input syntax: to_tsquery would parse each lexeme again (a hyphenated one
  // into its parts). The other words still go through to_tsquery, as before; && of an empty query
  // (words the parser drops, '-' say) is the other one, as in to_tsquery.
  const last = sql`${lexemes.map(quoteLexeme).join(' | ')}::tsquery`;
  const rest = words.slice(0, -1).join(' & ');
  return rest === '' ? last : sql`(to_tsquery('simple', ${rest}) && ${last})`;
}

function conditions(terms: RequestSearchTerms, fullText: RawBuilder<unknown> | undefined): Filter[] {
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
  if (fullText) {
    // Every word must occur in the request's columns or in what it asks for (content_search, kept
    // from the content by a trigger: migration 20261128_1001). Both are matched together through one
    // GIN index (migration 20261130_0001), which answers the whole query inside the index; for
    // common words PostgreSQL may instead walk requests newest first comparing stored values.
    where.push(() => sql<SqlBool>`${FULL_TEXT} @@ ${fullText}`);
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
 * carries scope and names so a broad search is checked without reading a row (migration 0027). The
 * page is cut from them, and only its rows are read whole, by primary key.
 */
export async function searchRequests(
  db: DbOrTrx,
  visible: ReturnType<typeof visibleRequests>,
  terms: RequestSearchTerms,
  offset: number,
  limit: number,
) {
  const fullText = terms.tsquery ? await fullTextQuery(db, terms.tsquery) : undefined;
  if (fullText === 'none') return { rows: [], total: 0, capped: false };
  let query = db.selectFrom('requests').where(visible);
  for (const condition of conditions(terms, fullText)) query = query.where(condition);
  const matches = await query
    .select(['request_number', 'submitted_at'])
    .orderBy('submitted_at', 'desc')
    .orderBy('request_number', 'desc')
    .limit(TOTAL_CAP + 1)
    .execute();
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
