import { type Kysely, sql } from 'kysely';
import { createCountTriggers, dropCountTriggers } from '../countTriggers.js';

// Every distinct lexeme of the requests' full text (search || content_search, the expression of
// requests_fulltext_idx, migration 20261130_0001), so Find Requests can spell the last word's prefix
// out as the few lexemes it stands for. GIN answers `'olivia' & 'harbour':*` by first collecting
// every request holding any lexeme that starts with 'harbour' into a bitmap, which grows with the
// data; `'olivia' & ('harbour' | 'harbourside')` lets its fast scan skip through the posting lists by
// the rarest word instead, as with exact words. Measured at 1,000,000 requests (EXPLAIN ANALYZE,
// median of 7, the machine shared): 10.4 ms with the prefix, 3.9 ms spelt out (the same 433
// requests), 3.7 ms for 'harbour' alone. collate "C" makes the primary key serve
// `lexeme like 'harb%'`, and compares bytes as a tsquery prefix does.
//
// Kept in the transaction of every write by statement triggers with transition tables, like the
// counts: an insert adds the lexemes of its rows, an update only those of rows whose words changed
// (most updates of a request touch its state, not its words). Lexemes are never deleted: one no
// request has any more only lengthens an expansion and matches nothing. Writers insert in one order
// so two statements adding the same new lexemes never deadlock; a writer adding a lexeme another
// transaction has just added waits for it to end (on conflict), which only brand-new words shared
// by two concurrent writes can cause.

const LEXEMES_OF = (row: string) =>
  sql.raw(`unnest(tsvector_to_array(${row}.search || coalesce(${row}.content_search, ''::tsvector)))`);

const insertLexemes = (source: ReturnType<typeof sql>) => sql`
  insert into request_lexemes (lexeme)
  select distinct l.lexeme collate "C" from (${source}) l
  order by 1
  on conflict do nothing`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table request_lexemes (lexeme text collate "C" primary key)`.execute(db);
  await createCountTriggers(db, 'request_lexemes', 'requests', {
    insert: insertLexemes(sql`select ${LEXEMES_OF('n')} as lexeme from new_rows n`),
    update: insertLexemes(sql`
      select ${LEXEMES_OF('n')} as lexeme from new_rows n
      left join old_rows o on o.request_number = n.request_number
      where o.request_number is null or o.search is distinct from n.search
        or o.content_search is distinct from n.content_search`),
  });
  // What is there already (at 1,000,000 requests one pass over them and a sort of their words).
  await sql`${sql.raw(insertLexemes(sql`select ${LEXEMES_OF('r')} as lexeme from requests r`).compile(db).sql)}`.execute(
    db,
  );
  await sql`analyze request_lexemes`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'request_lexemes', 'requests');
  await sql`drop table if exists request_lexemes`.execute(db);
}
