import { homePageRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';
import { onStatement } from '../../db/writes.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { CONFIGURATION_CHANGE_CHANNEL } from '../configuration/index.js';
import { HOME_CHANGE_CHANNEL, HomeCache, writesHomeState } from './cache.js';
import { getHomePage } from './service.js';

export async function homeRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const cache = new HomeCache(() => deps.live.listening);
  const stopForgetting = onStatement((node) => {
    if (writesHomeState(node)) cache.forget();
  });
  app.addHook('onClose', async () => stopForgetting());
  // A change by another instance, or a reconnect after which some may have been missed.
  await deps.live.subscribe(HOME_CHANGE_CHANNEL, () => cache.forget());
  await deps.live.subscribe(CONFIGURATION_CHANGE_CHANNEL, () => cache.forget());

  serve(app, homePageRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requireActor(request);
      return cache.viewOf(actor, () => getHomePage(deps.db, actor));
    }),
  );
}
