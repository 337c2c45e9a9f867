import {
  configurationEntryRoute,
  configurationListRoute,
  deleteEntryRoute,
  newChildEntryRoute,
  newConfigurationRoute,
  revertEntryRoute,
  saveEntryRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireSignedIn, sendView } from '../../http/views.js';
import { permissionFirst } from '../auth/index.js';
import { newConfiguration } from './configurations.js';
import { deleteEntryOrConfiguration } from './deletion.js';
import { requireConfigurationViewer } from './policy.js';
import { smartFormPreviewRoutes } from './preview/routes.js';
import { getEntry, newChild, revertEntry, saveEntry } from './service.js';
import { listView } from './views.js';

export function configurationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db } = deps;

  serve(app, configurationListRoute, async (_, request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const actor = requireConfigurationViewer(request);
    return sendView(request, reply, deps.views, await listView(db, actor));
  });

  serve(app, newConfigurationRoute, async ({ query }, request) =>
    newConfiguration(db, requireConfigurationViewer(request), query.scopePath),
  );

  serve(app, configurationEntryRoute, async ({ params, query }, request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const actor = requireConfigurationViewer(request);
    const view = await getEntry(db, actor, params.c, params.id, query);
    return sendView(request, reply, deps.views, view);
  });

  serve(app, newChildEntryRoute, async ({ params, query }, request) =>
    newChild(db, requireConfigurationViewer(request), params.c, params.id, query),
  );

  serve(
    app,
    saveEntryRoute,
    async ({ params, body }, request) =>
      saveEntry(db, requireConfigurationViewer(request), params.c, params.id, body, {
        webhooksAllowLoopback: deps.config.webhooks.allowLoopback,
        files: deps.files,
        jobs: deps.jobs,
      }),
    { onRequest: permissionFirst('configuration:view') },
  );

  serve(app, revertEntryRoute, async ({ params }, request) =>
    revertEntry(db, requireConfigurationViewer(request), params.c, params.id, deps.jobs),
  );

  // Deletes an entry, or with the root entry's id (c) the configuration; refused while in use.
  serve(app, deleteEntryRoute, async ({ params }, request) =>
    deleteEntryOrConfiguration(db, requireConfigurationViewer(request), params.c, params.id, deps.jobs),
  );

  smartFormPreviewRoutes(app, deps);
}
