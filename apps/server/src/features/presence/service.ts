import { randomUUID } from 'node:crypto';
import { type RequestPresenceMessage, viewingMessageSchema } from '@dossier/core';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { Db, DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import * as repo from './repository.js';

// Presence: which users have a request page open right now. The page announces itself over its live
// connection ({ $type: 'viewing', requestNumber }, null when it is left); the connection's row in
// PostgreSQL records it, and every viewer of the request is sent the new list of viewers.

interface Deps {
  db: Db;
  live: LiveHub;
}

interface Logger {
  warn(obj: unknown, msg?: string): void;
}

/** Sends the current viewers of a request to each of them. */
export async function publishViewers(deps: Deps, requestNumber: string): Promise<void> {
  const rows = await repo.listViewers(deps.db, requestNumber);
  const message: RequestPresenceMessage = {
    $type: 'requestPresence',
    requestNumber,
    viewers: rows.map((r) => ({ userId: r.id, name: r.name })),
  };
  await deps.live.publish(
    deps.db,
    rows.map((r) => r.id),
    message,
  );
}

/** Records which request a connection shows; a request the actor may not view is not recorded. */
export async function announceViewing(
  deps: Deps,
  actor: Actor,
  connectionId: string,
  requestNumber: string | null,
): Promise<void> {
  let shown = requestNumber;
  // The user's roles as they are now, not as when the socket opened (the actor is the socket's).
  if (shown && !(await repo.userMayView(deps.db, actor.id, shown))) shown = null;
  const before = await deps.db
    .transaction()
    .execute((trx) => repo.setViewing(trx, connectionId, actor.id, shown));
  if (before && before !== shown) await publishViewers(deps, before);
  if (shown) await publishViewers(deps, shown);
}

export async function leave(deps: Deps, connectionId: string): Promise<void> {
  const before = await repo.deleteConnection(deps.db, connectionId);
  if (before) await publishViewers(deps, before);
}

/**
 * Tracks one live connection: its row exists while the socket is open, the client's ping keeps it
 * fresh, a `viewing` message changes the request it shows, and closing removes it.
 */
export function trackPresence(deps: Deps, socket: WebSocket, actor: Actor, log: Logger): void {
  const connectionId = randomUUID();
  const mine = connectionsOf(deps.live);
  mine.add(connectionId);
  socket.on('close', () => mine.delete(connectionId));
  const failed = (error: unknown) => log.warn({ err: error }, 'presence update failed');
  // Messages are handled one after another, so a quick leave cannot overtake the announcement.
  let queue: Promise<unknown> = (async () => {
    await repo.deleteStale(deps.db);
    await repo.insertConnection(deps.db, connectionId, actor.id);
  })().catch(failed);
  const then = (work: () => Promise<unknown>) => {
    queue = queue.then(work).catch(failed);
  };
  socket.on('message', (data) => {
    const text = String(data);
    if (text.includes('"ping"')) {
      then(async () => {
        // A row removed meanwhile (e.g. by the stale sweep) is written again.
        if (!(await repo.touchConnection(deps.db, connectionId)))
          await repo.insertConnection(deps.db, connectionId, actor.id);
      });
      return;
    }
    let parsed: z.infer<typeof viewingMessageSchema>;
    try {
      const result = viewingMessageSchema.safeParse(JSON.parse(text));
      if (!result.success) return;
      parsed = result.data;
    } catch {
      return;
    }
    then(() => announceViewing(deps, actor, connectionId, parsed.requestNumber));
  });
  socket.on('close', () => then(() => leave(deps, connectionId)));
}

/** Which of the users hold a live connection now, on any instance. */
export function onlineUsers(db: DbOrTrx, userIds: string[]): Promise<Set<string>> {
  return repo.onlineUserIds(db, userIds);
}

/** The presence rows of each instance's own sockets, by the instance's hub. */
const connections = new WeakMap<LiveHub, Set<string>>();
function connectionsOf(live: LiveHub): Set<string> {
  const known = connections.get(live);
  if (known) return known;
  const set = new Set<string>();
  connections.set(live, set);
  return set;
}

const CHECK_BATCH = 1000;
const rechecks = new WeakMap<LiveHub, { running: Promise<void>; again: boolean }>();

/**
 * After a change of sessions, users or roles (NOTIFY dossier_sessions, from any instance, or a
 * reconnect of the listener, which may have missed some): each of this instance's sockets that
 * shows a request its user may no longer view shows none from now on, and that request's viewers
 * get the list without it. Messages are filtered when sent as well (repository.ts#listViewers), so
 * this is for the lists the others hold. Changes that come while a check runs make one more.
 */
export function recheckViewing(deps: Deps, log: Logger): Promise<void> {
  const current = rechecks.get(deps.live);
  if (current) {
    current.again = true;
    return current.running;
  }
  const state = { running: Promise.resolve(), again: false };
  // Kept before the work starts: with no sockets to check, the work ends before its first await.
  rechecks.set(deps.live, state);
  state.running = (async () => {
    do {
      state.again = false;
      try {
        const ids = [...connectionsOf(deps.live)];
        const left = new Set<string>();
        for (let i = 0; i < ids.length; i += CHECK_BATCH)
          for (const n of await repo.dropUnviewable(deps.db, ids.slice(i, i + CHECK_BATCH))) left.add(n);
        for (const n of left) await publishViewers(deps, n);
      } catch (error) {
        log.warn({ err: error }, 'presence re-check failed');
      }
    } while (state.again);
    rechecks.delete(deps.live);
  })();
  return state.running;
}
