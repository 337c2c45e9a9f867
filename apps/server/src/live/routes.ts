import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { trackPresence } from '../features/presence/service.js';
import { isSameOrigin } from '../http/csrf.js';

/** The live connection: only for a signed-in user, only from a page of this site. */
export function liveRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.get('/__ws', { websocket: true }, (socket, request) => {
    const actor = request.actor;
    if (!actor || !isSameOrigin(request)) {
      socket.close(4401, actor ? 'origin not allowed' : 'not signed in');
      return;
    }
    deps.live.add(socket, actor.id, actor.sessionId);
    trackPresence(deps, socket, actor, request.log);
    socket.on('message', (data) => {
      // The client pings every 30 s to keep proxies from closing an idle connection.
      if (String(data).includes('"ping"')) socket.send(JSON.stringify({ $type: 'pong' }));
    });
  });
}
