// `npm run bench:generate`: fills a bench database with BENCH_REQUESTS (default 1,000,000) requests
// spread over three years and several sender organisations, with their tasks, correspondence,
// results, invoices and history events, so the request page, the find-requests search, the
// dashboard and the reports can be measured at volume; then the access log (lib/accessLogFill.ts).
// Everything is set-based SQL (INSERT … SELECT over generate_series, one batch per statement); the
// secondary indexes are dropped during the load and rebuilt after it, which is several times faster
// than maintaining four GIN indexes row by row. Settings and the bench workflow: bench/README.md.
// Kept data is filled by the same triggers as in the app: the counts (one upsert per statement) and
// the request state each task, message and result keeps (migration 8001, a row trigger that sees
// the requests inserted earlier in the same statement; checked on 4,000 generated requests).
//
// With DATABASE_URL it writes there (an empty database is migrated and seeded with the bench
// passwords first). Without it, it starts the embedded PostgreSQL in BENCH_DATA_DIR and keeps it
// running afterwards, printing the BENCH_DATABASE_URL for `npm run bench`, until Ctrl-C.

import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.js';
import { createDb, migrateToLatest } from '../apps/server/src/db/database.js';
import { startEmbeddedPostgres } from '../apps/server/src/db/embedded.js';
import { seedIfEmpty } from '../apps/server/src/db/seed.js';
import { fillAccessLog } from './lib/accessLogFill.js';
import { liftAdministratorsSecondFactor } from './lib/servers.js';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './lib/types.js';

/** Generated rows carry this prefix in reference_number: how a re-run knows what exists already. */
const MARK = 'BEN-';
/** Days of submissions, back from today. */
const DAYS = 3 * 365;
const TABLES = [
  'requests',
  'tasks',
  'correspondence',
  'request_results',
  'request_invoices',
  'invoice_payments',
  'events',
];

function int(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}`);
  return n;
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1);

// Sender organisations with their request-number prefix and share of the volume (per mille).
const SENDERS = [
  { scope: '/org/acme/', prefix: 'ACM', submitter: 'submitter', upTo: 300 },
  { scope: '/org/acme/branch/sydney/', prefix: 'ACS', submitter: 'submitter', upTo: 400 },
  { scope: '/org/globex/', prefix: 'GLX', submitter: 'globex', upTo: 650 },
  { scope: '/org/initech/', prefix: 'INI', submitter: null, upTo: 800 },
  { scope: '/org/umbrella/', prefix: 'UMB', submitter: null, upTo: 920 },
  { scope: '/org/hooli/', prefix: 'HOO', submitter: null, upTo: 1000 },
];

const FIRST =
  `Olivia Charlotte Amelia Isla Mia Ava Grace Chloe Willow Matilda Harper Ella Sophie Ruby Zoe Evie
Lily Sienna Ivy Audrey Emily Georgia Hannah Jasmine Lucy Madison Scarlett Alice Eva Stella Oliver Noah Jack
William Leo Lucas Thomas Henry Charlie James Hudson Ethan Mason Archie Theodore Harrison Liam Alexander Max
Samuel Isaac Oscar Hunter Cooper Levi Elijah Harry Luca Benjamin Jacob Daniel Joshua`.split(/\s+/);
const LAST =
  `Smith Jones Williams Brown Wilson Taylor Johnson White Martin Anderson Thompson Nguyen Thomas Walker
Harris Lee Ryan Robinson Kelly King Davis Wright Evans Roberts Green Hall Wood Jackson Clarke Patel Khan Lewis
James Phillips Mitchell Campbell Scott Young Allen Moore Turner Hill Cook Murphy Ward Baker Morris Price Bell
Cooper Edwards Hughes Parker Stewart Collins Murray Watson Bennett Carter Shaw Chen Tran Wang Singh Kaur Ali
Russo Romano Papadopoulos Kowalski Novak Schmidt Fischer Dubois Moreau Silva Santos Garcia Lopez Sato Tanaka
Kim Park Cohen Levy Obrien Sullivan Fraser Hamilton Graham Duncan`.split(/\s+/);
const PLACES =
  `Northside Southside Eastside Westside Harbour Riverside Parkview Hillcrest Lakeside Seaview Bayside
Greenway Kingsford Queenscliff Bondi Manly Parramatta Chatswood Hornsby Penrith Newtown Glebe Randwick Ryde
Epping Carlton Fitzroy Richmond Brunswick Geelong Ballarat Bendigo Fremantle Subiaco Toowong Ipswich Hobart
Launceston Darwin Cairns`.split(/\s+/);
const KINDS = [
  'Medical Centre',
  'Hospital',
  'Family Practice',
  'Physiotherapy',
  'Radiology',
  'Pathology',
  'Dental Clinic',
  'Specialist Rooms',
  'Insurance Agency',
  'Health Service',
];
const TASK_TYPES = ['issueRequest', 'confirmIssuedRequest', 'followUp', 'qualityAssureResult', 'payInvoice'];

/** A pseudo-random 0 … n-1 for row g, independent for each `salt` (so names do not correlate). */
const pick = (salt: number, n: number) => `(abs(hashint8extended(g, ${salt})) % ${n})`;

const sqlArray = (items: string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(',')}]`;

/**
 * Columns of request number g (0-based over all generated requests) as SQL expressions over `g`.
 * The number is unique by construction: the day is g mod DAYS and the three letters spell
 * floor(g / DAYS) in base 26, so (day, letters) never repeats below DAYS × 26³ ≈ 19 million.
 */
function requestSelect(from: number, to: number): string {
  const sender = SENDERS.map(
    (s) => `when ${pick(5, 1000)} < ${s.upTo} then '${s.scope}|${s.prefix}|${s.submitter ?? ''}'`,
  ).join(' ');
  return `
    with base as (
      select g,
        split_part(case ${sender} end, '|', 1) as scope,
        split_part(case ${sender} end, '|', 2) as prefix,
        nullif(split_part(case ${sender} end, '|', 3), '') as submitter,
        (date_trunc('day', now() at time zone 'UTC') - make_interval(days => (g % ${DAYS})::int)
          + make_interval(secs => 21600 + (g * 7919) % 43200)) at time zone 'UTC' as submitted_at,
        (${sqlArray(FIRST)})[1 + ${pick(1, FIRST.length)}] || ' ' ||
          (${sqlArray(LAST)})[1 + ${pick(2, LAST.length)}] as applicant_name,
        (${sqlArray(PLACES)})[1 + ${pick(3, PLACES.length)}] || ' ' ||
          (${sqlArray(KINDS)})[1 + ${pick(4, KINDS.length)}] as recipient_name,
        chr(65 + ((g / ${DAYS}) / 676 % 26)::int) || chr(65 + ((g / ${DAYS}) / 26 % 26)::int) ||
          chr(65 + ((g / ${DAYS}) % 26)::int) as letters
      from generate_series(${from}::bigint, ${to - 1}::bigint) g
    ), numbered as (
      select *, prefix || to_char(submitted_at at time zone 'UTC', 'YYMMDD') || letters as body,
        case when submitted_at < now() - interval '60 days' and g % 10 < 8 then 'closed'
             when submitted_at < now() - interval '3 days' then 'open' else 'submitted' end as status
      from base
    )
    select body || pg_temp.check_digits(body) as request_number, scope, status, submitter, submitted_at,
      applicant_name, recipient_name, g
    from numbered`;
}

const CHECK_DIGITS_FUNCTION = `
  create or replace function pg_temp.check_digits(body text) returns text language sql immutable as $$
    select lpad((98 - (string_agg(case when c between 'A' and 'Z' then (ascii(c) - 55)::text else c end,
      '' order by i) || '00')::numeric % 97)::int::text, 2, '0')
    from unnest(string_to_array(body, null)) with ordinality as t(c, i)
  $$`;

function insertBatch(from: number, to: number): string {
  return `
    with r as (${requestSelect(from, to)}),
    inserted as (
      insert into requests (request_number, scope, status, submitted_by, reference_number,
        external_user_references, applicant, applicant_name, applicant_date_of_birth, recipient,
        recipient_name, content, submitted_at, issued_at, issue_method, closed_at, last_updated_at,
        last_activity_at)
      select request_number, scope, status, submitter, '${MARK}' || g,
        case when g % 50 = 0 then array['ADV-' || (1000 + g % 7)] else '{}'::text[] end,
        jsonb_build_object('name', applicant_name,
          'dateOfBirth', to_char(date '1940-01-01' + ${pick(6, 25000)}::int, 'YYYY-MM-DD'),
          'country', 'AU', 'phone', '04' || lpad((g * 7 % 100000000)::text, 8, '0'),
          'email', lower(replace(applicant_name, ' ', '.')) || '@mail.example',
          'reference1', 'CLM' || lpad(g::text, 8, '0'), 'reference1Type', 'claimNumber', 'tags', '{}'::jsonb),
        applicant_name,
        date '1940-01-01' + ${pick(6, 25000)}::int,
        jsonb_build_object('recipientId', null, 'version', null, 'name', recipient_name,
          'phone', '02 9' || lpad((g % 1000000)::text, 3, '0'), 'fax', null,
          'email', 'records@' || lower(replace(recipient_name, ' ', '-')) || '.example',
          'postalAddress', (g % 200 + 1) || ' Main Street, Sydney NSW 2000', 'country', 'AU',
          'attachments', '[]'::jsonb, 'tags', '{}'::jsonb, 'contacts', '[]'::jsonb),
        recipient_name,
        jsonb_build_object('itemTypes', jsonb_build_array(jsonb_build_object('id',
          case when g % 3 = 0 then 'itemGeneralPractice' else 'itemHospitalRecords' end,
          'smartFormAnswers', '{}'::jsonb, 'excludedQuestions', '[]'::jsonb, 'submitterSuppliedFields', '{}'::jsonb,
          'fieldSets', '{}'::jsonb, 'fieldSetFiles', '{}'::jsonb, 'files', '[]'::jsonb)),
          'additionalQuestions', '[]'::jsonb, 'additionalFiles', '[]'::jsonb,
          'additionalInstructions', case when g % 4 = 0 then 'Please send the records electronically.' end),
        submitted_at,
        case when status <> 'submitted' then submitted_at + interval '1 day' end,
        case when status <> 'submitted' then 'email' end,
        case when status = 'closed' then submitted_at + make_interval(days => 10 + (g % 40)::int) end,
        submitted_at, submitted_at + make_interval(days => (g % 9)::int)
      from r
      on conflict do nothing
      returning request_number, scope, status, submitted_at, closed_at, substr(reference_number, ${MARK.length + 1})::bigint as g
    ),
    t as (
      insert into tasks (type, subject, request_number, scope, triggered_at, due_at, completed_at,
        completed_by, was_overdue, assigned_to)
      select (${sqlArray(TASK_TYPES)})[1 + (g + n) % ${TASK_TYPES.length}], 'Request ' || request_number,
        request_number, scope, submitted_at + make_interval(days => n::int),
        submitted_at + make_interval(days => n::int + 5),
        case when status = 'closed' or n < 2 then submitted_at + make_interval(days => n::int + 2 + (g % 5)::int) end,
        case when status = 'closed' or n < 2 then 'handler' end,
        case when status = 'closed' or n < 2 then g % 5 > 3 end,
        case when g % 4 > 0 then 'handler' end
      from inserted, generate_series(1, 1 + (g % 3)::int) n
    ),
    ev as (
      -- The request's history: what its page lists. Already reacted to, so the workflow engine of
      -- the measured instance has nothing to catch up on.
      insert into events (type, aggregate_type, aggregate_id, actor, payload, created_at, workflow_pending)
      select e.type, 'request', request_number, e.actor, jsonb_build_object('summary', e.summary), e.at, false
      from inserted, lateral (values
        ('request.submitted', 'submitter', 'Request submitted.', submitted_at),
        ('request.issued', 'handler', 'Issued the request by email.',
          case when status <> 'submitted' then submitted_at + interval '1 day' end),
        ('request.noteAdded', 'handler', 'Added a note.',
          case when status <> 'submitted' and g % 2 = 0 then submitted_at + interval '2 days' end),
        ('request.closed', 'handler', 'Closed the request.', closed_at)
      ) as e(type, actor, summary, at)
      where e.at is not null
    ),
    c as (
      insert into correspondence (request_number, kind, issue_request_method, to_address, subject, body,
        message_delivery_status, created_at)
      select request_number, case when n = 1 then 'issuedRequest' else 'note' end,
        case when n = 1 then 'email' end,
        case when n = 1 then jsonb_build_object('email', 'records@example.org') end,
        case when n = 1 then 'Request ' || request_number else null end,
        jsonb_build_object('type', 'text', 'content',
          case when n = 1 then 'Please provide the requested records.' else 'Called the recipient; records expected next week.' end),
        case when n = 1 then 'delivered' end,
        submitted_at + make_interval(days => n::int)
      from inserted, generate_series(1, 1 + (g % 2)::int) n
      where status <> 'submitted'
    ),
    res as (
      insert into request_results (request_number, file_key, created_at, quality_assured_at, quality_assurance_skipped)
      select request_number, 'bench/result-' || g || '.pdf', submitted_at + interval '8 days',
        case when g % 3 > 0 then submitted_at + interval '9 days' end, false
      from inserted where status <> 'submitted' and g % 5 = 0
    ),
    inv as (
      insert into request_invoices (request_number, file_key, amount, amount_exclusive_tax, tax, currency,
        created_at, paid_at)
      select request_number, 'bench/invoice-' || g || '.pdf', 11000 + (g % 50) * 110, 10000 + (g % 50) * 100,
        1000 + (g % 50) * 10, 'AUD', submitted_at + interval '9 days',
        case when status = 'closed' then submitted_at + interval '12 days' end
      from inserted where status <> 'submitted' and g % 10 = 0
      returning id, amount, amount_exclusive_tax, tax, currency, paid_at
    )
    -- A paid invoice was paid by one payment of its amount (the Paid Invoices report reads payments).
    insert into invoice_payments (invoice_id, paid_at, payee_name, method, amount_exclusive_tax, tax, amount,
      currency)
    select id, paid_at, 'Bench Payee', 'bankTransfer', amount_exclusive_tax, tax, amount, currency
    from inv where paid_at is not null`;
}

async function withDatabase(): Promise<{ url: string; keepServing?: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL };
  const dataDir = process.env.BENCH_DATA_DIR || path.join(os.tmpdir(), 'dossier-bench-data');
  console.log(`No DATABASE_URL: using the embedded PostgreSQL in ${dataDir}`);
  const embedded = await startEmbeddedPostgres(dataDir, { info: console.log, warn: console.warn });
  return {
    url: embedded.url,
    keepServing: () =>
      new Promise<void>((resolve) => {
        console.log(
          `\nThe database keeps running for the bench; in another shell:\n` +
            `  BENCH_DATABASE_URL='${embedded.url}' npm run bench\nCtrl-C stops it.`,
        );
        process.once('SIGINT', () => void embedded.stop().finally(resolve));
      }),
  };
}

/** Migrates and seeds (bench passwords) an empty database, as `npm run bench` would. */
async function prepare(url: string): Promise<void> {
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: path.join(os.tmpdir(), 'dossier-bench-files'),
    SEED_DEMO: 'true',
    DEMO_PASSWORD,
    ADMIN_PASSWORD,
  });
  const { db } = createDb(url, 2);
  try {
    await migrateToLatest(db);
    await seedIfEmpty(db, config);
    await liftAdministratorsSecondFactor(db);
  } finally {
    await db.destroy();
  }
}

async function main(): Promise<void> {
  const wanted = int('BENCH_REQUESTS', 1_000_000, 1);
  const batch = int('BENCH_BATCH', 50_000, 100);
  const accessEntries = int('BENCH_ACCESS_ENTRIES', wanted * 100, 0);
  const accessBatch = int('BENCH_ACCESS_BATCH', 2_000_000, 1000);
  const started = Date.now();
  const { url, keepServing } = await withDatabase();
  await prepare(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(CHECK_DIGITS_FUNCTION);
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query('set synchronous_commit = off');
    // Where the last run stopped: the next row number (a row whose number happened to be taken, by
    // the demo data say, was skipped, so counting the rows would come out short and redo a batch).
    const existing = Number(
      (
        await client.query(
          `select coalesce(max(substr(reference_number, ${MARK.length + 1})::bigint) + 1, 0) as n
           from requests where reference_number like '${MARK}%'`,
        )
      ).rows[0].n,
    );
    if (existing >= wanted) {
      console.log(`${existing} requests were generated already; nothing to do.`);
    } else {
      await load(client, existing, wanted, batch);
    }
    await fillAccessLog(client, accessEntries, accessBatch);
    const check = await client.query(
      `select request_number from requests where reference_number like '${MARK}%' order by random() limit 1`,
    );
    console.log(`Done in ${seconds(started)}s; a generated request: ${check.rows[0]?.request_number}`);
  } finally {
    await client.end();
  }
  await keepServing?.();
}

async function load(client: pg.Client, from: number, to: number, batch: number): Promise<void> {
  // Rebuilt from their own definitions afterwards, so they stay exactly what the migrations made.
  const indexes = (
    await client.query<{ name: string; def: string }>(
      `select indexname as name, indexdef as def from pg_indexes i
       where schemaname = 'public' and tablename = any($1)
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
      [TABLES],
    )
  ).rows;
  console.log(
    `Generating requests ${from + 1} to ${to} in batches of ${batch} (${indexes.length} indexes set aside)…`,
  );
  for (const index of indexes) await client.query(`drop index if exists "${index.name}"`);
  const loadStarted = Date.now();
  try {
    for (let at = from; at < to; at += batch) {
      const end = Math.min(to, at + batch);
      const t = Date.now();
      await client.query(insertBatch(at, end));
      const done = end - from;
      const rate = done / ((Date.now() - loadStarted) / 1000);
      const eta = (to - end) / rate;
      console.log(
        `  ${end.toLocaleString('en-AU')} / ${to.toLocaleString('en-AU')} requests (${((100 * end) / to).toFixed(0)}%), batch ${seconds(t)}s, ${rate.toFixed(0)} req/s, about ${eta.toFixed(0)}s left`,
      );
    }
  } finally {
    const t = Date.now();
    console.log(`Rebuilding ${indexes.length} indexes…`);
    for (const index of indexes) {
      const i = Date.now();
      await client.query(index.def);
      console.log(`  ${index.name} ${seconds(i)}s`);
    }
    console.log(`Indexes rebuilt in ${seconds(t)}s; vacuuming and analysing…`);
    for (const table of TABLES) await client.query(`vacuum (analyze) ${table}`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
