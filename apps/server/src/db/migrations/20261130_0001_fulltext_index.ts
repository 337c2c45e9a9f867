import { type Kysely, sql } from 'kysely';

// Find Requests matched each word against two GIN indexes (the request's columns in `search`, what
// it asks for in `content_search`) and ANDed the words' bitmaps, so every word cost a bitmap of
// every request holding it: 20 ms for "olivia harbour" at 1,000,000 requests (16,275 and 24,934
// rows for 433 matches), growing with the data. One GIN index on both together lets the whole query
// (word & word:*) be matched inside the index, where GIN skips through the posting lists of the
// other words by the rarest: 2 ms for the two words, 10 ms with the last one as a prefix (a prefix
// still collects every request of its words). The words mean the same as before: each must occur in
// the columns or in the content; tsvector || shifts the content's positions past the columns', so a
// phrase (a hyphenated word) never spans the two. `search` keeps its own index for the inbox's
// suggestions.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index requests_fulltext_idx on requests
    using gin ((search || coalesce(content_search, ''::tsvector)))`.execute(db);
  await sql`drop index if exists requests_content_search_col_idx`.execute(db);
  await sql`analyze requests`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create index if not exists requests_content_search_col_idx on requests using gin (content_search)`.execute(
    db,
  );
  await sql`drop index if exists requests_fulltext_idx`.execute(db);
}
