import { ENTRY_TYPES } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { requireSignedIn, sendView } from '../../http/views.js';
import { permissionFirst } from '../auth/index.js';
import { newConfiguration } from './configurations.js';
import { deleteEntryOrConfiguration } from './deletion.js';
import { requireConfigurationViewer } from './policy.js';
import { smartFormPreviewRoutes } from './preview/routes.js';
import { getEntry, newChild, revertEntry, saveEntry } from './service.js';
import { listView } from './views.js';

const entryParams = z.object({ c: z.string().min(1).max(100), id: z.string().min(1).max(300) });

const saveBody = z.object({
  name: z.string().max(200),
  order: z.number().int().min(-1_000_000).max(1_000_000),
  isDefault: z.boolean().default(false),
  isDisabled: z.boolean().default(false),
  type: z.enum(ENTRY_TYPES).optional(),
  data: z.unknown(),
  version: z.number().int().nullable(),
  isInherited: z.boolean().optional(),
  scopePath: z.string().max(500).optional(),
});

export function configurationRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = deps;

  r.get('/admin/configuration', async (request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const actor = requireConfigurationViewer(request);
    return sendView(request, reply, deps.views, await listView(db, actor));
  });

  r.get(
    '/admin/configuration/new',
    { schema: { querystring: z.object({ scopePath: z.string().max(500).default('') }) } },
    async (request) => newConfiguration(db, requireConfigurationViewer(request), request.query.scopePath),
  );

  r.get(
    '/admin/configuration/edit/:c/:id',
    {
      schema: {
        params: entryParams,
        querystring: z.object({
          name: z.string().max(200).optional(),
          scopePath: z.string().max(500).optional(),
          type: z.enum(ENTRY_TYPES).optional(),
        }),
      },
    },
    async (request, reply) => {
      if (!requireSignedIn(request, reply)) return reply;
      const actor = requireConfigurationViewer(request);
      const view = await getEntry(db, actor, request.params.c, request.params.id, request.query);
      return sendView(request, reply, deps.views, view);
    },
  );

  r.get(
    '/admin/configuration/edit/:c/:id/new',
    {
      schema: {
        params: entryParams,
        querystring: z.object({
          childId: z.string().max(100).optional(),
          name: z.string().max(200).optional(),
          type: z.string().max(50).optional(),
        }),
      },
    },
    async (request) =>
      newChild(db, requireConfigurationViewer(request), request.params.c, request.params.id, request.query),
  );

  r.post(
    '/admin/configuration/edit/:c/:id',
    { onRequest: permissionFirst('configuration:view'), schema: { params: entryParams, body: saveBody } },
    async (request) =>
      saveEntry(db, requireConfigurationViewer(request), request.params.c, request.params.id, request.body, {
        webhooksAllowLoopback: deps.config.webhooks.allowLoopback,
        files: deps.files,
        jobs: deps.jobs,
      }),
  );

  r.post('/admin/configuration/edit/:c/:id/revert', { schema: { params: entryParams } }, async (request) =>
    revertEntry(db, requireConfigurationViewer(request), request.params.c, request.params.id, deps.jobs),
  );

  // Deletes an entry, or with the root entry's id (c) the configuration; refused while in use.
  r.post('/admin/configuration/edit/:c/:id/delete', { schema: { params: entryParams } }, async (request) =>
    deleteEntryOrConfiguration(
      db,
      requireConfigurationViewer(request),
      request.params.c,
      request.params.id,
      deps.jobs,
    ),
  );

  smartFormPreviewRoutes(app, deps);
}
