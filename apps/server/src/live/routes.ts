import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import { type Actor, hasPermission } from '../http/actor.js';
import { isSameOrigin } from '../http/csrf.js';
import type { AppDeps } from '../http/deps.js';
import { TOPIC_PATTERN } from './hub.js';

/**
 * The topic a page asks to follow ({ $type: 'following', topic }), if the actor may: the dashboard
 * is every signed-in user's; the inbox list and an inbox message only an inbox user's (a message's id
 * is unguessable, and the change itself carries nothing but the topic); the Retention page's an
 * administrator's who runs retention.
 */
export function followedTopic(actor: Actor, text: string): string | null | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const m = value as { $type?: unknown; topic?: unknown };
  if (m?.$type !== 'following') return undefined;
  if (m.topic === null) return null;
  if (typeof m.topic !== 'string' || !TOPIC_PATTERN.test(m.topic)) return null;
  if ((m.topic === 'inbox' || m.topic.startsWith('inbox:')) && !hasPermission(actor, 'inbox')) return null;
  if (m.topic === 'retention' && !hasPermission(actor, 'retention:manage')) return null;
  return m.topic;
}

/** What else a new connection starts: presence (features/presence), wired in by app.ts. */
export type OnConnection = (deps: AppDeps, socket: WebSocket, actor: Actor, log: FastifyBaseLogger) => void;

/** The live connection: only for a signed-in user, only from a page of this site. */
export function liveRoutes(app: FastifyInstance, deps: AppDeps, onConnection: OnConnection): void {
  app.get('/__ws', { websocket: true }, (socket, request) => {
    const actor = request.actor;
    if (!actor || !isSameOrigin(request)) {
      socket.close(4401, actor ? 'origin not allowed' : 'not signed in');
      return;
    }
    deps.live.add(socket, actor.id, actor.sessionId);
    onConnection(deps, socket, actor, request.log);
    socket.on('message', (data) => {
      const text = String(data);
      // The client pings every 30 s to keep proxies from closing an idle connection.
      if (text.includes('"ping"')) socket.send(JSON.stringify({ $type: 'pong' }));
      else if (text.includes('"following"')) {
        const topic = followedTopic(actor, text);
        if (topic !== undefined) deps.live.follow(socket, topic);
      }
    });
  });
}
