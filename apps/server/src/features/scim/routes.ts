import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { requirePermission } from '../auth/index.js';
import { asList, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { installScimErrorHandler, SCIM_CONTENT_TYPE, ScimError, scimNotFound } from './errors.js';
import * as groups from './groups.js';
import { authenticateScim, createToken, tokenStatus } from './tokens.js';
import * as users from './users.js';

// SCIM 2.0 under /scim/v2 (RFC 7644), in a plugin of its own: its own body type
// (application/scim+json), its own error shape and not-found answer. Calls carry the client's bearer
// token; no session cookie is read and no CSRF header needed (http/csrf.ts). The token itself is made
// in the configuration editor (the two /admin/configuration routes at the end).

const PREFIX = '/scim/v2';
const idParams = z.object({ id: z.string().min(1).max(300) });
const listQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  count: z.coerce.number().int().min(0).max(1_000_000).optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});

export function scimRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  const baseUrlOf = (request: FastifyRequest) =>
    `${(config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}${PREFIX}`;
  const effectsOf = (request: FastifyRequest) => ({
    live: deps.live,
    jobs: deps.jobs,
    baseUrl: baseUrlOf(request),
  });
  const clientOf = (request: FastifyRequest) => authenticateScim(db, request.headers.authorization);

  void app.register(
    async (scim) => {
      installScimErrorHandler(scim);
      scim.addContentTypeParser(
        'application/scim+json',
        { parseAs: 'string', bodyLimit: config.bodyLimit },
        (_request, body, done) => {
          try {
            done(null, JSON.parse(body as string));
          } catch {
            done(new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax'), undefined);
          }
        },
      );
      scim.addHook('onRequest', async (_request, reply) => {
        reply.type(SCIM_CONTENT_TYPE);
      });
      scim.setNotFoundHandler(async (request) => {
        throw scimNotFound(`There is no SCIM endpoint ${request.url.split('?')[0]}.`);
      });
      const r = scim.withTypeProvider<ZodTypeProvider>();

      r.get('/ServiceProviderConfig', async (request) => serviceProviderConfig(baseUrlOf(request)));
      r.get('/ResourceTypes', async (request) => asList(resourceTypes(baseUrlOf(request))));
      r.get('/ResourceTypes/:id', { schema: { params: idParams } }, async (request) => {
        const found = resourceTypes(baseUrlOf(request)).find((t) => t.id === request.params.id);
        if (!found) throw scimNotFound(`There is no resource type ${request.params.id}.`);
        return found;
      });
      r.get('/Schemas', async (request) => asList(schemas(baseUrlOf(request))));
      r.get('/Schemas/:id', { schema: { params: idParams } }, async (request) => {
        const found = schemas(baseUrlOf(request)).find((s) => s.id === request.params.id);
        if (!found) throw scimNotFound(`There is no schema ${request.params.id}.`);
        return found;
      });

      r.get('/Users', { schema: { querystring: listQuery } }, async (request) =>
        users.listUsers(db, await clientOf(request), request.query, baseUrlOf(request)),
      );
      r.post('/Users', async (request, reply) => {
        const created = await users.createUser(db, await clientOf(request), request.body, effectsOf(request));
        return reply.status(201).header('location', created.meta.location).send(created);
      });
      r.get('/Users/:id', { schema: { params: idParams } }, async (request) =>
        users.getUser(db, await clientOf(request), request.params.id, baseUrlOf(request)),
      );
      r.put('/Users/:id', { schema: { params: idParams } }, async (request) =>
        users.replaceUser(db, await clientOf(request), request.params.id, request.body, effectsOf(request)),
      );
      r.patch('/Users/:id', { schema: { params: idParams } }, async (request) =>
        users.patchUser(db, await clientOf(request), request.params.id, request.body, effectsOf(request)),
      );
      r.delete('/Users/:id', { schema: { params: idParams } }, async (request, reply) => {
        await users.deleteUser(db, await clientOf(request), request.params.id, effectsOf(request));
        return reply.status(204).send();
      });

      r.get('/Groups', { schema: { querystring: listQuery } }, async (request) =>
        groups.listGroups(
          db,
          await clientOf(request),
          {
            ...request.query,
            excludeMembers: /(^|,)\s*members\s*(,|$)/i.test(request.query.excludedAttributes ?? ''),
          },
          baseUrlOf(request),
        ),
      );
      r.post('/Groups', async (request, reply) => {
        const created = await groups.createGroup(
          db,
          await clientOf(request),
          request.body,
          effectsOf(request),
        );
        return reply.status(201).header('location', created.meta.location).send(created);
      });
      r.get('/Groups/:id', { schema: { params: idParams } }, async (request) =>
        groups.getGroup(db, await clientOf(request), request.params.id, baseUrlOf(request)),
      );
      r.put('/Groups/:id', { schema: { params: idParams } }, async (request) =>
        groups.replaceGroup(db, await clientOf(request), request.params.id, request.body, effectsOf(request)),
      );
      r.patch('/Groups/:id', { schema: { params: idParams } }, async (request) =>
        groups.patchGroup(db, await clientOf(request), request.params.id, request.body, effectsOf(request)),
      );
      r.delete('/Groups/:id', { schema: { params: idParams } }, async (request, reply) => {
        await groups.deleteGroup(db, await clientOf(request), request.params.id);
        return reply.status(204).send();
      });
    },
    { prefix: PREFIX },
  );

  // The configuration editor's side: whether the client has a token, and a new one (shown once).
  const r = app.withTypeProvider<ZodTypeProvider>();
  const entryParams = z.object({ c: z.string().min(1).max(100), id: z.string().min(1).max(300) });
  r.get('/admin/configuration/edit/:c/:id/scim-token', { schema: { params: entryParams } }, async (request) =>
    tokenStatus(db, requirePermission(request, 'configuration:edit'), request.params.c, request.params.id),
  );
  r.post(
    '/admin/configuration/edit/:c/:id/scim-token',
    { schema: { params: entryParams } },
    async (request) =>
      createToken(db, requirePermission(request, 'configuration:edit'), request.params.c, request.params.id),
  );
}
