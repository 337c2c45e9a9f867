import { type Kysely, type RawBuilder, sql } from 'kysely';
import { createCountTriggers, dropCountTriggers, localDay } from '../countTriggers.js';

// Paid Invoices' summary counted the invoices with a payment within the dates from every payment
// of the year and every invoice (a sequential scan of each): 36 ms at 100,000 requests, 226 ms at
// 1,000,000, 693 ms at 3,000,000. The kept rows give the same figures from a few hundred rows.
//
// An invoice is in the report when one of its payments falls within the dates, counted once, with
// the latest such payment's day. Per invoice and per distinct local day it was paid on, a row is
// kept under (that day, the next day it was paid on or null): the invoice is counted by exactly one
// of its rows for the dates [F, T], the one with F <= paid_on <= T < next_paid_on (or no next day).
// A row carries what the summary sums of the invoice: amount, tax, all paid to date and what is
// left, grouped by scope, currency, the local day it was added (business days are counted from it
// at read time, against the calendar as it is then) and the two days. Rows of many invoices with
// the same key are summed; the table grows with calendar days, not with invoices.
//
// Statement triggers with transition tables keep it in the transaction of every change to payments
// and invoices (like open_task_days, migration 20261129_3001): the affected invoices' rows are
// worked out before and after the change, and the difference is added. The rows an update or a
// delete brings to zero are deleted. Days are Australia/Sydney days (BUSINESS_TIME_ZONE).

/** The kept rows of the invoices `inv` with the payments `pay` (relations), times `sign`. */
const rowsOf = (inv: RawBuilder<unknown>, pay: RawBuilder<unknown>, sign: 1 | -1) => {
  const s = sql.raw(String(sign));
  return sql`
  select i.scope, i.currency, ${localDay('i.created_at')} as created_on, s.d as paid_on, s.next_d as next_paid_on,
    ${s} * count(*) as n, ${s} * coalesce(sum(i.amount), 0) as amount, ${s} * count(i.amount) as amounts,
    ${s} * coalesce(sum(i.tax), 0) as tax, ${s} * sum(t.paid) as paid,
    ${s} * coalesce(sum(i.amount - t.paid), 0) as balance
  from ${inv} i
    join (select p.invoice_id, sum(p.amount) as paid from ${pay} p group by p.invoice_id) t on t.invoice_id = i.id
    join (
      select x.invoice_id, x.d, lead(x.d) over (partition by x.invoice_id order by x.d) as next_d
      from (select distinct p.invoice_id, ${localDay('p.paid_at')} as d from ${pay} p) x
    ) s on s.invoice_id = i.id
  where i.discarded_at is null
  group by 1, 2, 3, 4, 5`;
};

const KEY = 'scope, currency, created_on, paid_on, next_paid_on';
const SUMS = ['n', 'amount', 'amounts', 'tax', 'paid', 'balance'] as const;

/** Adds the difference `source` gives (rows of rowsOf, signed) in one order, so writers never deadlock. */
const upsert = (source: RawBuilder<unknown>) => sql`
  insert into invoice_paid_days as k (${sql.raw(KEY)}, ${sql.raw(SUMS.join(', '))})
  select ${sql.raw(KEY)}, ${sql.raw(SUMS.map((c) => `sum(${c})`).join(', '))} from (${source}) c
  group by ${sql.raw(KEY)} having ${sql.raw(SUMS.map((c) => `sum(${c}) <> 0`).join(' or '))}
  order by ${sql.raw(KEY)}
  on conflict (${sql.raw(KEY)}) do update set ${sql.raw(SUMS.map((c) => `${c} = k.${c} + excluded.${c}`).join(', '))}`;

/**
 * The rows the upsert brought to no invoice, deleted (every sum is of invoices, so they hold nothing):
 * found through a partial index of such rows, so a change that empties none costs an empty lookup.
 */
const prune = sql`delete from invoice_paid_days where n = 0`;

const keep = (source: RawBuilder<unknown>) => sql`${upsert(source)}; ${prune}`;

/** The invoices of these ids as they are now, and their payments as they are now. */
const invoicesOf = (ids: RawBuilder<unknown>) => sql`(select * from request_invoices where id in (${ids}))`;
const paymentsOf = (ids: RawBuilder<unknown>, except = sql`false`) =>
  sql`(select p.id, p.invoice_id, p.paid_at, p.amount from invoice_payments p where p.invoice_id in (${ids}) and not ${except})`;
const transition = (table: string) => sql.raw(`(select id, invoice_id, paid_at, amount from ${table})`);

/** A change of payments: the invoices' rows with the payments before (now, less `added`, plus `removed`) and now. */
const paymentChange = (ids: RawBuilder<unknown>, added: string | null, removed: string | null) => {
  const before = sql`(${paymentsOf(ids, added ? sql.raw(`p.id in (select id from ${added})`) : sql`false`)}
    ${removed ? sql`union all ${transition(removed)}` : sql``})`;
  return sql`${rowsOf(invoicesOf(ids), paymentsOf(ids), 1)} union all ${rowsOf(invoicesOf(ids), before, -1)}`;
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table invoice_paid_days (
    scope text not null,
    currency text,
    created_on date not null,
    paid_on date not null,
    next_paid_on date,
    n integer not null,
    amount bigint not null,
    amounts integer not null,
    tax bigint not null,
    paid bigint not null,
    balance bigint not null
  )`.execute(db);
  await sql`create unique index invoice_paid_days_key on invoice_paid_days
    (paid_on, scope, currency, created_on, next_paid_on) nulls not distinct`.execute(db);
  await sql`create index invoice_paid_days_emptied on invoice_paid_days (paid_on) where n = 0`.execute(db);
  const newIds = sql`select invoice_id from new_rows`;
  const oldIds = sql`select invoice_id from old_rows`;
  await createCountTriggers(db, 'invoice_paid_days', 'invoice_payments', {
    insert: keep(paymentChange(newIds, 'new_rows', null)),
    update: keep(paymentChange(sql`${newIds} union ${oldIds}`, 'new_rows', 'old_rows')),
    delete: keep(paymentChange(oldIds, null, 'old_rows')),
  });
  // An update of invoices that changes what their rows hold (scope, currency, amounts, discarded,
  // the day added): their rows with the invoices before and now, the payments as they are. Most
  // updates of an invoice (its file, its paid mark) change none of it and compute nothing.
  const counted = ['scope', 'currency', 'created_at', 'amount', 'tax', 'discarded_at'];
  const changed = sql.raw(`select n.id from new_rows n join old_rows o on o.id = n.id
    where (${counted.map((c) => `n.${c}`).join(', ')}) is distinct from (${counted.map((c) => `o.${c}`).join(', ')})`);
  const changedIn = (table: string) => sql`(select * from ${sql.raw(table)} where id in (${changed}))`;
  const payments = paymentsOf(changed);
  await createCountTriggers(db, 'invoice_paid_days_inv', 'request_invoices', {
    update: keep(
      sql`${rowsOf(changedIn('new_rows'), payments, 1)} union all ${rowsOf(changedIn('old_rows'), payments, -1)}`,
    ),
    delete: keep(rowsOf(sql.raw('old_rows'), paymentsOf(sql`select id from old_rows`), -1)),
  });
  // What is there already.
  await sql`${sql.raw(upsert(rowsOf(sql`request_invoices`, sql`invoice_payments`, 1)).compile(db).sql)}`.execute(
    db,
  );
  await sql`analyze invoice_paid_days`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropCountTriggers(db, 'invoice_paid_days_inv', 'request_invoices');
  await dropCountTriggers(db, 'invoice_paid_days', 'invoice_payments');
  await sql`drop table if exists invoice_paid_days`.execute(db);
}
