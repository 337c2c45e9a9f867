import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeContains } from '../../db/search.js';

export interface PayeeData {
  disabled: boolean;
  name: string;
  referenceNumber: string | null;
  email: string | null;
  bankAccount: string | null;
  currency: string;
  foreignReference: { label: string; url: string } | null;
}

const toColumns = (d: PayeeData) => ({
  disabled: d.disabled,
  name: d.name,
  reference_number: d.referenceNumber,
  email: d.email,
  bank_account: d.bankAccount,
  currency: d.currency,
  foreign_reference_label: d.foreignReference?.label ?? null,
  foreign_reference_url: d.foreignReference?.url ?? null,
});

export async function findPayee(db: DbOrTrx, id: string, forUpdate = false) {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  let query = db.selectFrom('payees').selectAll().where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return undefined;
  const data: PayeeData = {
    disabled: row.disabled,
    name: row.name,
    referenceNumber: row.reference_number,
    email: row.email,
    bankAccount: row.bank_account,
    currency: row.currency,
    foreignReference: row.foreign_reference_url
      ? { label: row.foreign_reference_label ?? row.foreign_reference_url, url: row.foreign_reference_url }
      : null,
  };
  return { id: row.id, version: row.version, scope: row.scope, data };
}

export async function insertPayee(
  db: DbOrTrx,
  data: PayeeData,
  actor: string | null,
  scope: string,
): Promise<string> {
  const row = await db
    .insertInto('payees')
    .values({ ...toColumns(data), scope, updated_by: actor })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updatePayee(
  db: DbOrTrx,
  id: string,
  version: number,
  data: PayeeData,
  actor: string | null,
) {
  const row = await db
    .updateTable('payees')
    .set({ ...toColumns(data), version: sql`version + 1`, updated_at: new Date(), updated_by: actor })
    .where('id', '=', id)
    .where('version', '=', version)
    .returning('version')
    .executeTakeFirst();
  return row?.version;
}

export interface PayeeSearch {
  name?: string | undefined;
  referenceNumber?: string | undefined;
  email?: string | undefined;
  bankAccount?: string | undefined;
}

export async function searchPayees(db: DbOrTrx, terms: PayeeSearch, offset: number, limit: number) {
  let query = db.selectFrom('payees');
  if (terms.name) query = query.where(sql`lower(name)`, 'like', likeContains(terms.name));
  if (terms.email) query = query.where(sql`lower(coalesce(email, ''))`, 'like', likeContains(terms.email));
  // References and account numbers are looked up by their beginning.
  if (terms.referenceNumber) {
    query = query.where(
      sql`lower(reference_number)`,
      'like',
      `${likeContains(terms.referenceNumber).slice(1)}`,
    );
  }
  if (terms.bankAccount)
    query = query.where('bank_account', 'like', likeContains(terms.bankAccount).slice(1));
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'name', 'reference_number', 'email', 'bank_account', 'currency', 'disabled'])
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Enabled users holding the administrator role at the root. */
export async function rootAdministrators(db: DbOrTrx): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('u.id')
    .where('r.role', '=', 'c:roles:admin')
    .where('r.scope', '=', '/')
    .where('u.disabled', '=', false)
    .execute();
  return [...new Set(rows.map((r) => r.id))];
}

/** How long a change of payment details is pointed out to whoever pays the payee. */
export const RECENT_CHANGE_DAYS = 30;

/** Per payee id, when its bank account or email last changed, if within RECENT_CHANGE_DAYS. */
export async function recentSensitiveChanges(db: DbOrTrx, payeeIds: string[]): Promise<Map<string, Date>> {
  if (payeeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select(['aggregate_id', (eb) => eb.fn.max('created_at').as('at')])
    .where('aggregate_type', '=', 'payee')
    .where('type', '=', 'payeeUpdated')
    .where('aggregate_id', 'in', payeeIds)
    .where('created_at', '>', sql<Date>`now() - make_interval(days => ${RECENT_CHANGE_DAYS})`)
    .where(sql<boolean>`(payload -> 'changes') ?| array['bankAccount', 'email']`)
    .groupBy('aggregate_id')
    .execute();
  return new Map(rows.map((r) => [r.aggregate_id, new Date(r.at)]));
}
