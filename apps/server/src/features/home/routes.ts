import { homePageRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { CONFIGURATION_CHANGE_CHANNEL } from '../configuration/index.js';
import { HOME_CHANGE_CHANNEL, HomeCache, parseHomeChange } from './cache.js';
import { getHomePage } from './service.js';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function homeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const cache = new HomeCache(() => deps.live.listening);
  // What any instance changed (after its commit), or a reconnect after which some may have been missed.
  await deps.live.subscribe(HOME_CHANGE_CHANNEL, (payload) => cache.forget(parseHomeChange(payload)));
  await deps.live.subscribe(CONFIGURATION_CHANGE_CHANNEL, () => cache.forget('*'));
  // The user's own write, committed by now: the next page must show it, NOTIFY or not yet.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (request.actor && !READS.has(request.method)) cache.forgetUser(request.actor.id);
    return payload;
  });

  serve(app, homePageRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requireActor(request);
      return cache.viewOf(actor, () => getHomePage(deps.db, actor));
    }),
  );
}
