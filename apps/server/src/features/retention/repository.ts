import type { Applicant, RequestContent } from '@dossier/core';
import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// SQL of retention and erasure (issue 36). A request is due for a kind of removal when it is
// closed, not on legal hold, closed before the cutoff, and not done since it was last closed (a
// request re-opened and closed again is due again). The partial indexes of migration 8001 hold
// exactly the requests not done yet.

export type RemovalKind = 'files' | 'personalData';

export const likePattern = (scope: string) => `${scope.replace(/[\\%_]/g, '\\$&')}%`;

const DONE_COLUMN = { files: 'files_removed_at', personalData: 'de_identified_at' } as const;

function dueFilter(kind: RemovalKind) {
  const done = DONE_COLUMN[kind];
  return sql<SqlBool>`status = 'closed' and legal_hold_at is null
    and (${sql.ref(done)} is null or ${sql.ref(done)} < closed_at)`;
}

/**
 * The scopes holding closed requests, within the given scopes. A DISTINCT over the closed requests
 * read all of them (205 ms at 755,000 closed of 1,000,000); this skips from one scope to the next
 * through requests_closed_scope_idx, one probe per scope (a loose index scan).
 */
export async function scopesWithClosedRequests(db: DbOrTrx, within: string[]): Promise<string[]> {
  if (within.length === 0) return [];
  const { rows } = await sql<{ scope: string }>`
    with recursive s(scope) as (
      (select scope from requests where status = 'closed' order by scope limit 1)
      union all
      select (select r.scope from requests r where r.status = 'closed' and r.scope > s.scope
        order by r.scope limit 1)
      from s where s.scope is not null
    )
    select scope from s
    where scope is not null and scope like any(${within.map(likePattern)}::text[])`.execute(db);
  return rows.map((r) => r.scope);
}

export async function countDue(db: DbOrTrx, scope: string, kind: RemovalKind, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('scope', '=', scope)
    .where('closed_at', '<', cutoff)
    .where(dueFilter(kind))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * The number of files still stored of the requests due, counted apart (a sum over requests): the
 * request's own and the raw messages and attachments of the mail linked to it (removal.ts).
 */
export async function countFilesDue(db: DbOrTrx, scope: string, cutoff: Date): Promise<number> {
  const due = db
    .selectFrom('requests')
    .select('request_number')
    .where('scope', '=', scope)
    .where('closed_at', '<', cutoff)
    .where(dueFilter('files'));
  const own = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_type', '=', 'request')
    .where('removed_at', 'is', null)
    .where('owner_id', 'in', due)
    .executeTakeFirst();
  const mail = await db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('owner_type', 'like', 'inboxMessage%')
    .where('removed_at', 'is', null)
    .where(
      'owner_id',
      'in',
      db
        .selectFrom('inbox_message_links')
        .select(sql<string>`message_id::text`.as('id'))
        .where('unlinked_at', 'is', null)
        .where('request_number', 'in', due),
    )
    .executeTakeFirst();
  return Number(own?.n ?? 0) + Number(mail?.n ?? 0);
}

/** Closed requests past the cutoff that a legal hold keeps. */
export async function countHeld(db: DbOrTrx, scope: string, cutoff: Date): Promise<number> {
  const row = await db
    .selectFrom('requests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('scope', '=', scope)
    .where('status', '=', 'closed')
    .where('closed_at', '<', cutoff)
    .where('legal_hold_at', 'is not', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Locks a batch of due requests. SKIP LOCKED lets two instances (or a run and an erasure) share the
 * work: each takes rows the other does not hold, and a row done meanwhile no longer matches.
 */
export async function lockDueBatch(
  trx: DbOrTrx,
  scope: string,
  kind: RemovalKind,
  cutoff: Date,
  limit: number,
): Promise<string[]> {
  const rows = await trx
    .selectFrom('requests')
    .select('request_number')
    .where('scope', '=', scope)
    .where('closed_at', '<', cutoff)
    .where(dueFilter(kind))
    .orderBy('closed_at')
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .execute();
  return rows.map((r) => r.request_number);
}

export function lockRequest(trx: DbOrTrx, requestNumber: string) {
  return trx
    .selectFrom('requests')
    .select([
      'request_number',
      'scope',
      'status',
      'legal_hold_at',
      'applicant',
      'content',
      'reference_number',
      'closed_at',
      'de_identified_at',
      'files_removed_at',
    ])
    .where('request_number', '=', requestNumber)
    .forUpdate()
    .executeTakeFirst();
}

/** The keys of the request's files still in storage. */
export async function storedFilesOf(trx: DbOrTrx, requestNumber: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('files')
    .select('key')
    .where('owner_type', '=', 'request')
    .where('owner_id', '=', requestNumber)
    .where('removed_at', 'is', null)
    .execute();
  return rows.map((r) => r.key);
}

export async function markFilesRemoved(trx: DbOrTrx, requestNumber: string, keys: string[], at: Date) {
  if (keys.length > 0)
    await trx.updateTable('files').set({ removed_at: at }).where('key', 'in', keys).execute();
  await trx
    .updateTable('requests')
    .set({ files_removed_at: at })
    .where('request_number', '=', requestNumber)
    .execute();
}

export async function writeDeIdentified(
  trx: DbOrTrx,
  requestNumber: string,
  data: { applicant: Applicant; content: RequestContent; referenceNumber: string | null; at: Date },
) {
  await trx
    .updateTable('requests')
    .set({
      applicant: JSON.stringify(data.applicant),
      applicant_name: data.applicant.name,
      applicant_date_of_birth: null,
      content: JSON.stringify(data.content),
      reference_number: data.referenceNumber,
      de_identified_at: data.at,
    })
    .where('request_number', '=', requestNumber)
    .execute();
  // File names often carry the person's name; the extension stays.
  await trx
    .updateTable('files')
    .set({ name: sql`'de-identified' || coalesce(substring(name from '\\.[A-Za-z0-9]{1,8}$'), '')` })
    .where('owner_type', '=', 'request')
    .where('owner_id', '=', requestNumber)
    .execute();
}

/** The requests of an applicant in the given scopes: by name, and date of birth and/or reference. */
export function findApplicantRequests(
  db: DbOrTrx,
  within: string[],
  search: { name: string; dateOfBirth?: string | undefined; reference?: string | undefined },
  limit = 200,
) {
  let query = db
    .selectFrom('requests')
    .select([
      'request_number',
      'scope',
      'status',
      'applicant_name',
      'applicant_date_of_birth',
      'closed_at',
      'legal_hold_at',
      'de_identified_at',
    ])
    .where(sql<string>`lower(applicant_name)`, '=', search.name.trim().toLowerCase())
    .where((eb) => eb.or(within.map((s) => eb('scope', 'like', likePattern(s)))));
  if (search.dateOfBirth) query = query.where('applicant_date_of_birth', '=', search.dateOfBirth as never);
  if (search.reference) {
    const ref = search.reference.trim().toLowerCase();
    query = query.where((eb) =>
      eb.or([
        eb(sql<string>`lower(applicant ->> 'reference1')`, '=', ref),
        eb(sql<string>`lower(applicant ->> 'reference2')`, '=', ref),
        eb(sql<string>`lower(reference_number)`, '=', ref),
      ]),
    );
  }
  return query.orderBy('submitted_at', 'desc').limit(limit).execute();
}
