import { randomUUID } from 'node:crypto';
import { type RequestPresenceMessage, viewingMessageSchema } from '@dossier/core';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { Db, DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { canViewRequest, findRequest } from '../requests/index.js';
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
  if (shown) {
    const request = await findRequest(deps.db, shown);
    if (!request || !canViewRequest(actor, request)) shown = null;
  }
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
