import { BUSINESS_TIME_ZONE, REQUEST_SEARCH_CAP } from '@dossier/core';
import { type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { likeContains, likeStartsWith } from '../../db/search.js';
import type { visibleRequests } from '../requests/index.js';

// All SQL of the find-requests search. Every condition has an index behind it on 1,000,000 requests
// (migrations 0009 and 0014): the number by its primary key or prefix index, applicant and recipient
// names by trigram, the full text by the GIN indexes on `search` and on the content (migration 701),
// scope and dates by (scope text_pattern_ops, submitted_at). Counting stops at TOTAL_CAP: an exact count of a broad
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
  if (terms.tsquery) {
    // Every word must occur in the request's columns or in what it asks for (content_search, kept
    // from the content by a trigger: migration 20261128_1001). Both are matched together through one
    // GIN index (migration 20261130_0001), which answers the whole query inside the index; for
    // common words PostgreSQL may instead walk requests newest first comparing stored values.
    const query = terms.tsquery;
    where.push(() => sql<SqlBool>`${FULL_TEXT} @@ to_tsquery('simple', ${query})`);
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
  let query = db.selectFrom('requests').where(visible);
  for (const condition of conditions(terms)) query = query.where(condition);
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
