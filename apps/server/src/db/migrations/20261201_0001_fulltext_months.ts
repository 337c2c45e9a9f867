import { type Kysely, sql } from 'kysely';

// Find Requests answers the newest matches of its words, and took every match from the heap to sort
// them by submission: for two common words 433 requests at 1,000,000, about 1,300 at 3,000,000, so
// the search grew with the data (2-3 ms at 100,000 requests, 11 ms at 3,000,000). A second GIN
// index holds every word of a request once more, prefixed with the month it was submitted in
// ('24311~olivia'), so a search can ask for its words within the newest months first, a window of
// months at a time, and stop once it has its page and the count's cap
// (features/requestSearch/windows.ts). Each posting list of this index holds one month's requests
// with that word, so a window costs its own matches, not the table's: a month added to the words of
// requests_fulltext_idx instead was ANDed with the words by skipping through the whole month's list
// and the words' whole lists, which made the search slower, not faster.

export async function up(db: Kysely<unknown>): Promise<void> {
  // UTC months (immutable, as an index needs), numbered year × 12 + month − 1: a window is any run
  // of months, so which zone draws their edges does not matter. A word never holds '~' (the parser
  // splits there), so the month ends at the first '~', and a prefix of the month and a word
  // ('24311~harb':*) matches only that month's words. The body calls nothing outside pg_catalog:
  // CREATE INDEX runs it with a search_path of pg_catalog alone (PostgreSQL 17).
  await sql`create function request_month_words(words tsvector, submitted_at timestamptz) returns tsvector
    language sql immutable parallel safe
    as $$ select array_to_tsvector(array(
      select (date_part('year', submitted_at at time zone 'UTC') * 12
        + date_part('month', submitted_at at time zone 'UTC') - 1)::integer::text || '~' || w
      from unnest(tsvector_to_array(words)) w)) $$`.execute(db);
  await sql`create index requests_fulltext_month_idx on requests using gin (
    request_month_words(search || coalesce(content_search, ''::tsvector), submitted_at))`.execute(db);
  await sql`analyze requests`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists requests_fulltext_month_idx`.execute(db);
  await sql`drop function if exists request_month_words(tsvector, timestamptz)`.execute(db);
}
