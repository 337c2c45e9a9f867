import { phoneSearchTerm } from '@dossier/core';
import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { RecipientData } from '../../db/jsonColumns.js';
import { likeContains } from '../../db/search.js';

export type { RecipientData };

// All SQL of recipients. The row holds the current version; recipient_versions holds every saved
// version whole, so a request can keep the copy it was issued to.

const toColumns = (d: RecipientData) => ({
  disabled: d.disabled,
  name: d.name,
  phone: d.phone,
  fax: d.fax,
  email: d.email,
  web_site_url: d.webSiteUrl,
  street_address: d.streetAddress,
  postal_address: d.postalAddress,
  country: d.country,
  notes: d.notes,
  tags: JSON.stringify(d.tags),
  attachments: JSON.stringify(d.attachments),
  contacts: JSON.stringify(d.contacts),
});

export async function findRecipient(db: DbOrTrx, id: string, forUpdate = false) {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  let query = db.selectFrom('recipients').selectAll().where('id', '=', id);
  if (forUpdate) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && { ...row, data: fromRow(row) };
}

function fromRow(row: {
  disabled: boolean;
  name: string;
  phone: string;
  fax: string | null;
  email: string | null;
  web_site_url: string | null;
  street_address: string | null;
  postal_address: string | null;
  country: string | null;
  notes: string | null;
  tags: RecipientData['tags'] | null;
  attachments: RecipientData['attachments'] | null;
  contacts: RecipientData['contacts'] | null;
}): RecipientData {
  return {
    disabled: row.disabled,
    name: row.name,
    phone: row.phone,
    fax: row.fax,
    email: row.email,
    webSiteUrl: row.web_site_url,
    streetAddress: row.street_address,
    postalAddress: row.postal_address,
    country: row.country,
    notes: row.notes,
    tags: row.tags ?? {},
    attachments: row.attachments ?? [],
    contacts: row.contacts ?? [],
  };
}

export async function insertRecipient(
  db: DbOrTrx,
  data: RecipientData,
  actor: string | null,
  scope: string,
): Promise<string> {
  const row = await db
    .insertInto('recipients')
    .values({ ...toColumns(data), scope, updated_by: actor })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertVersion(db, row.id, 1, data, actor);
  return row.id;
}

/** Saves a new version if `version` is still the current one; answers the new version or undefined. */
export async function updateRecipient(
  db: DbOrTrx,
  id: string,
  version: number,
  data: RecipientData,
  actor: string | null,
): Promise<number | undefined> {
  const row = await db
    .updateTable('recipients')
    .set({ ...toColumns(data), version: sql`version + 1`, updated_at: new Date(), updated_by: actor })
    .where('id', '=', id)
    .where('version', '=', version)
    .returning('version')
    .executeTakeFirst();
  if (!row) return undefined;
  await insertVersion(db, id, row.version, data, actor);
  return row.version;
}

async function insertVersion(
  db: DbOrTrx,
  id: string,
  version: number,
  data: RecipientData,
  actor: string | null,
) {
  await db
    .insertInto('recipient_versions')
    .values({ recipient_id: id, version, data: JSON.stringify(data), created_by: actor })
    .execute();
}

export async function findRecipientVersion(db: DbOrTrx, id: string, version: number) {
  const row = await db
    .selectFrom('recipient_versions')
    .selectAll()
    .where('recipient_id', '=', id)
    .where('version', '=', version)
    .executeTakeFirst();
  return row;
}

export interface RecipientSearch {
  name?: string | undefined;
  phone?: string | undefined;
  address?: string | undefined;
  email?: string | undefined;
}

export async function searchRecipients(db: DbOrTrx, terms: RecipientSearch, offset: number, limit: number) {
  let query = db.selectFrom('recipients');
  if (terms.name) query = query.where(sql`lower(name)`, 'like', likeContains(terms.name));
  if (terms.phone) query = query.where('phone', 'like', likeContains(phoneSearchTerm(terms.phone)));
  if (terms.email) query = query.where(sql`lower(coalesce(email, ''))`, 'like', likeContains(terms.email));
  if (terms.address) {
    query = query.where(
      sql`lower(coalesce(street_address, '') || ' ' || coalesce(postal_address, ''))`,
      'like',
      likeContains(terms.address),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .select(['id', 'name', 'phone', 'email', 'street_address', 'postal_address', 'disabled'])
      .orderBy(sql`lower(name)`)
      .orderBy('id')
      .offset(offset)
      .limit(limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}
