import type pg from 'pg';

// `bench:generate`'s access log (issue 36): BENCH_ACCESS_ENTRIES entries (default 100 per generated
// request, the 100,000,000 at 1,000,000 requests), each a read of a random request by one of
// the demo's people or an API client, within two months of its submission (and never in the
// future), so a request's entries sit in a few months' partitions as real reads do. Set-based like
// the requests: one INSERT … SELECT per batch over a numbered copy of the request numbers; the two
// indexes are set aside during the load and rebuilt after it. A re-run adds what is missing.

const READERS = ['handler', 'manager', 'submitter', 'globex', 'advisor', 'admin'];
const WHATS = ['request', 'request', 'request', 'history', 'preview', 'file'];

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

export async function fillAccessLog(client: pg.Client, wanted: number, batch: number): Promise<void> {
  const existing = Number((await client.query('select count(*) as n from access_log')).rows[0].n);
  if (existing >= wanted) {
    console.log(`The access log holds ${existing.toLocaleString('en-AU')} entries already; nothing to add.`);
    return;
  }
  await client.query(`select access_log_ensure_months(
    (now() - interval '3 years 2 months')::date, (now() + interval '3 months')::date)`);
  await client.query(`create temp table bench_numbers as
    select row_number() over () as i, request_number, submitted_at from requests`);
  await client.query('create index on bench_numbers (i)');
  const requests = Number((await client.query('select count(*) as n from bench_numbers')).rows[0].n);
  const indexes = (
    await client.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename = 'access_log'`,
    )
  ).rows;
  console.log(
    `Access log: adding ${(wanted - existing).toLocaleString('en-AU')} entries over ${requests.toLocaleString('en-AU')} requests (${indexes.length} indexes set aside)…`,
  );
  for (const index of indexes) await client.query(`drop index if exists "${index.name}"`);
  const started = Date.now();
  try {
    for (let at = existing; at < wanted; at += batch) {
      const end = Math.min(wanted, at + batch);
      const t = Date.now();
      await client.query(
        `insert into access_log (at, user_id, api_client, request_number, what, via, address)
         select least(now(), b.submitted_at + make_interval(mins => ((g * 7919) % 86400)::int)),
           case when g % 20 = 0 then null else ($1::text[])[1 + (g % ${READERS.length})] end,
           case when g % 20 = 0 then 'api:bench:key' end,
           b.request_number,
           case when g % 20 = 0 then 'request' else ($2::text[])[1 + ((g / 7) % ${WHATS.length})] end,
           case when g % 20 = 0 then 'api' else 'page' end,
           ('198.51.100.' || (1 + g % 250))::inet
         from generate_series($3::bigint, $4::bigint) g
         join bench_numbers b on b.i = 1 + (hashint8(g)::bigint & 2147483647) % ${requests}`,
        [READERS, WHATS, at, end - 1],
      );
      const rate = (end - existing) / ((Date.now() - started) / 1000);
      console.log(
        `  ${end.toLocaleString('en-AU')} / ${wanted.toLocaleString('en-AU')} entries, batch ${seconds(t)}s, ${rate.toFixed(0)}/s, about ${((wanted - end) / rate).toFixed(0)}s left`,
      );
    }
  } finally {
    const t = Date.now();
    // pg_indexes writes a partitioned index as ON ONLY (the parent alone): build every month's too.
    for (const index of indexes) await client.query(index.def.replace(' ON ONLY ', ' ON '));
    console.log(`Access log indexes rebuilt in ${seconds(t)}s; analysing…`);
    await client.query('analyze access_log');
    await client.query('drop table if exists bench_numbers');
  }
}
