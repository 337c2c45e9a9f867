import { configurationIdOf, ROOT_ENTRY_ID, TRAINABLE_TASK_TYPES } from '@dossier/core';
import { sql } from 'kysely';
import type { Db } from '../../src/db/database.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import type { LiveHub } from '../../src/live/hub.js';

// Helpers of the workflow and assignment tests: skills, a configuration of one scope, events with a
// chosen time, a fake socket that records what is pushed live to a user, and the mail of a request.

export async function train(
  db: Db,
  userId: string,
  types: readonly string[] = TRAINABLE_TASK_TYPES,
  active = true,
) {
  await db
    .insertInto('task_skills')
    .values(
      types.map((t) => ({
        user_id: userId,
        task_type: t,
        level: 'trained',
        status: active ? 'active' : 'inactive',
      })),
    )
    .onConflict((oc) =>
      oc.columns(['user_id', 'task_type']).doUpdateSet((eb) => ({
        level: eb.ref('excluded.level'),
        status: eb.ref('excluded.status'),
      })),
    )
    .execute();
}

/** A configuration at a scope path with the given entries (type, data), e.g. request settings. */
export async function configureScope(
  db: Db,
  scopePath: string,
  entries: { id: string; type: string; data: unknown; isDefault?: boolean }[],
) {
  const id = configurationIdOf(scopePath);
  await db
    .insertInto('configurations')
    .values({ id, scope_path: scopePath, name: scopePath })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('configuration_entries')
    .values(
      entries.map((e) => ({
        configuration_id: id,
        id: e.id,
        parent_id: ROOT_ENTRY_ID,
        type: e.type,
        name: e.id,
        is_default: e.isDefault ?? false,
        data: JSON.stringify(e.data),
      })),
    )
    .execute();
}

export async function insertEvent(
  db: Db,
  event: { type: string; requestNumber: string; actor?: string | null; payload?: object; at?: Date },
) {
  const row = await db
    .insertInto('events')
    .values({
      type: event.type,
      aggregate_type: 'request',
      aggregate_id: event.requestNumber,
      actor: event.actor ?? null,
      payload: JSON.stringify({ summary: 'test', ...event.payload }),
      created_at: event.at ?? new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Registers a socket for the user on this hub; answers the messages it receives. */
export function listenAs(live: LiveHub, userId: string): Record<string, unknown>[] {
  const received: Record<string, unknown>[] = [];
  const socket = {
    readyState: 1,
    send: (data: string) => received.push(JSON.parse(data) as Record<string, unknown>),
    on: () => undefined,
    close: () => undefined,
  };
  live.add(socket as never, userId, `session-${userId}`);
  return received;
}

export function tasksOf(db: Db, requestNumber: string) {
  return db
    .selectFrom('tasks')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .orderBy('id')
    .execute();
}

/** Merges data into an entry of a scope's configuration, e.g. its request or task type settings. */
export async function setScopeEntry(db: Db, scopePath: string, id: string, data: Record<string, unknown>) {
  await sql`update configuration_entries set data = data || ${JSON.stringify(data)}::jsonb
            where configuration_id = (select id from configurations where scope_path = ${scopePath})
              and id = ${id}`.execute(db);
  invalidateConfigurationCache(db);
}

/** Merges data into an entry of the root configuration (seeded). */
export const setRootEntry = (db: Db, id: string, data: Record<string, unknown>) =>
  setScopeEntry(db, '/', id, data);

/**
 * Moves the request's events that the engine has not handled yet to a chosen time, as if the route
 * had been called then: due dates counted from it are fixed whatever day the test runs.
 */
export async function backdatePending(db: Db, requestNumber: string, at: Date) {
  await db
    .updateTable('events')
    .set({ created_at: at })
    .where('aggregate_id', '=', requestNumber)
    .where('workflow_pending', '=', true)
    .execute();
}

/** The mail queued about a request, oldest first. */
export function mailAbout(db: Db, requestNumber: string) {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .orderBy('id')
    .execute();
}
