import { type Kysely, sql } from 'kysely';

// Find Requests' full text also covers what the request asks for (issue 20): item type names,
// smart-form answers, submitter-supplied fields, field sets, additional questions and the
// instructions. The request's own `search` column (0009) is a stored generated column; changing its
// expression would rewrite all 1,000,000 rows and every index of the table under an exclusive lock.
// The content gets its own GIN index on an expression instead: building it reads the table once and
// writes nothing else, and a search asks `search @@ q or request_content_search(content) @@ q`, which
// PostgreSQL answers with a bitmap OR of the two GIN indexes. The expression is an immutable
// function, so the index and the query name the very same thing. Building an index (and VACUUM,
// ANALYZE) runs with a search_path of pg_catalog only (PostgreSQL 17), so the functions carry the
// search_path they were created with to find each other.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function request_content_text(content jsonb) returns text
    language sql immutable parallel safe set search_path from current as $$
      select coalesce(string_agg(v #>> '{}', ' '), '') from (
        select jsonb_path_query(content, 'lax $.itemTypes[*].name ? (@.type() == "string")') as v
        union all
        select jsonb_path_query(content,
          'lax $.itemTypes[*].smartFormAnswers.** ? (@.type() == "string" || @.type() == "number")')
        union all
        select jsonb_path_query(content, 'lax $.itemTypes[*].submitterSuppliedFields.* ? (@.type() == "string")')
        union all
        select jsonb_path_query(content, 'lax $.itemTypes[*].fieldSets.* ? (@.type() == "string")')
        union all
        select jsonb_path_query(content, 'lax $.additionalQuestions[*].text ? (@.type() == "string")')
        union all
        select jsonb_path_query(content, 'lax $.additionalInstructions ? (@.type() == "string")')
        union all
        select jsonb_path_query(content, 'lax $.additionalInstructionsToHandler ? (@.type() == "string")')
      ) s
    $$`.execute(db);
  await sql`
    create function request_content_search(content jsonb) returns tsvector
    language sql immutable parallel safe set search_path from current as $$
      select to_tsvector('simple', request_content_text(content))
    $$`.execute(db);
  await sql`create index requests_content_search_idx on requests using gin (request_content_search(content))`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists requests_content_search_idx`.execute(db);
  await sql`drop function if exists request_content_search(jsonb)`.execute(db);
  await sql`drop function if exists request_content_text(jsonb)`.execute(db);
}
