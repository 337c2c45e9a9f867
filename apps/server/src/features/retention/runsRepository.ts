import type { RetentionRunKind } from '@dossier/core';
import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { RetentionLeftRequest } from '../../db/schema.js';
import { likePattern } from './repository.js';

// SQL of retention_runs: one row per retention run or erasure, its counts and request numbers.

export async function insertRun(
  db: DbOrTrx,
  run: {
    kind: RetentionRunKind;
    actor: string | null;
    scopes: string[];
    requestedBy?: string;
    reason?: string;
  },
): Promise<string> {
  const row = await db
    .insertInto('retention_runs')
    .values({
      kind: run.kind,
      actor: run.actor,
      scopes: run.scopes,
      requested_by: run.requestedBy ?? null,
      reason: run.reason ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function finishRun(
  db: DbOrTrx,
  id: string,
  done: {
    filesRemoved: number;
    deIdentified: number;
    requestNumbers: string[];
    left: RetentionLeftRequest[];
    scopes: string[];
    accessLogMonths: string[];
  },
) {
  await db
    .updateTable('retention_runs')
    .set({
      finished_at: new Date(),
      scopes: done.scopes,
      files_removed: done.filesRemoved,
      requests_de_identified: done.deIdentified,
      request_numbers: done.requestNumbers,
      left_requests: JSON.stringify(done.left),
      access_log_months: done.accessLogMonths,
    })
    .where('id', '=', id)
    .execute();
}

/**
 * The latest runs whose every scope lies within the given scopes, newest first: an administrator
 * sees no request numbers of scopes it does not hold. A run that did nothing has no scopes.
 */
export function listRuns(db: DbOrTrx, within: string[], limit = 20) {
  const patterns = within.map(likePattern);
  return db
    .selectFrom('retention_runs')
    .leftJoin('users', 'users.id', 'retention_runs.actor')
    .selectAll('retention_runs')
    .select('users.name as actor_name')
    .where(
      sql<SqlBool>`not exists (select 1 from unnest(retention_runs.scopes) x where not (x like any(${patterns}::text[])))`,
    )
    .orderBy('started_at', 'desc')
    .limit(limit)
    .execute();
}

export function findRun(db: DbOrTrx, id: string) {
  return db
    .selectFrom('retention_runs')
    .leftJoin('users', 'users.id', 'retention_runs.actor')
    .selectAll('retention_runs')
    .select('users.name as actor_name')
    .where('retention_runs.id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Serialises one administrator's Run now clicks (until the transaction ends). */
export async function lockRunNow(db: DbOrTrx, actor: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('retention-run-now'), hashtext(${actor}))`.execute(db);
}

/**
 * Whether the administrator's Run now is queued or running. A run unfinished after an hour is
 * taken for dead (its instance stopped mid-run; the job's retry or the next click continues).
 */
export async function hasPendingRunOf(db: DbOrTrx, actor: string): Promise<boolean> {
  const row = await db
    .selectFrom('retention_runs')
    .select('id')
    .where('kind', '=', 'manual')
    .where('actor', '=', actor)
    .where('finished_at', 'is', null)
    .where('started_at', '>', sql<Date>`now() - interval '1 hour'`)
    .executeTakeFirst();
  return row !== undefined;
}
