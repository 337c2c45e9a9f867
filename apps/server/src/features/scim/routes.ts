import { createScimTokenRoute, scimTokenStatusRoute } from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requirePermission } from '../auth/index.js';
import * as contracts from './contracts.js';
import { asList, resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { installScimErrorHandler, SCIM_CONTENT_TYPE, ScimError, scimNotFound } from './errors.js';
import * as groups from './groups.js';
import { authenticateScim, createToken, type ScimClient, tokenStatus } from './tokens.js';
import * as users from './users.js';

// SCIM 2.0 under /scim/v2 (RFC 7644), served from its route contracts (contracts.ts) in a plugin of
// its own: its own body type (application/scim+json), its own error shape and not-found answer.
// Calls carry the client's bearer token, checked before the body is read (a refused call touches
// nothing); no session cookie is read and no CSRF header needed (http/csrf.ts). The token itself is
// made in the configuration editor (the two /admin/configuration routes at the end).

const PREFIX = '/scim/v2';

declare module 'fastify' {
  interface FastifyRequest {
    /** The SCIM client whose token the call carries (set before the body is read). */
    scimClient: ScimClient | undefined;
  }
}

/** What both SCIM plugins share: the error shape, the body type and the answer's content type. */
function installScimProtocol(scim: FastifyInstance, bodyLimit: number): void {
  installScimErrorHandler(scim);
  scim.addContentTypeParser(
    'application/scim+json',
    { parseAs: 'string', bodyLimit },
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
}

export function scimRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { db, config } = deps;
  const baseUrlOf = (request: FastifyRequest) =>
    `${(config.publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '')}${PREFIX}`;
  const effectsOf = (request: FastifyRequest) => ({
    live: deps.live,
    jobs: deps.jobs,
    baseUrl: baseUrlOf(request),
  });
  const authenticate = {
    onRequest: async (request: FastifyRequest) => {
      request.scimClient = await authenticateScim(db, request.headers.authorization);
    },
  };
  const clientOf = (request: FastifyRequest): ScimClient => {
    if (!request.scimClient) throw new ScimError(401, 'The SCIM token is missing.');
    return request.scimClient;
  };

  // Unknown paths under /scim/v2 answer SCIM's 404 (a not-found handler needs the prefix).
  void app.register(
    async (scim) => {
      installScimProtocol(scim, config.bodyLimit);
      scim.setNotFoundHandler(async (request) => {
        throw scimNotFound(`There is no SCIM endpoint ${request.url.split('?')[0]}.`);
      });
    },
    { prefix: PREFIX },
  );

  // The routes, with the full paths of their contracts.
  void app.register(async (scim) => {
    installScimProtocol(scim, config.bodyLimit);
    scim.decorateRequest('scimClient', undefined);

    // Discovery describes the service, not anyone's data: answered without a token (discovery.ts).
    serve(scim, contracts.serviceProviderConfigRoute, async (_input, request) =>
      serviceProviderConfig(baseUrlOf(request)),
    );
    serve(scim, contracts.resourceTypesRoute, async (_input, request) =>
      asList(resourceTypes(baseUrlOf(request))),
    );
    serve(scim, contracts.resourceTypeRoute, async ({ params }, request) => {
      const found = resourceTypes(baseUrlOf(request)).find((t) => t.id === params.id);
      if (!found) throw scimNotFound(`There is no resource type ${params.id}.`);
      return found;
    });
    serve(scim, contracts.schemasRoute, async (_input, request) => asList(schemas(baseUrlOf(request))));
    serve(scim, contracts.schemaRoute, async ({ params }, request) => {
      const found = schemas(baseUrlOf(request)).find((s) => s.id === params.id);
      if (!found) throw scimNotFound(`There is no schema ${params.id}.`);
      return found;
    });

    serve(
      scim,
      contracts.listUsersRoute,
      async ({ query }, request) => users.listUsers(db, clientOf(request), query, baseUrlOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.createUserRoute,
      async ({ body }, request, reply) => {
        const created = await users.createUser(db, clientOf(request), body, effectsOf(request));
        reply.status(201).header('location', created.meta.location);
        return created;
      },
      authenticate,
    );
    serve(
      scim,
      contracts.getUserRoute,
      async ({ params }, request) => users.getUser(db, clientOf(request), params.id, baseUrlOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.replaceUserRoute,
      async ({ params, body }, request) =>
        users.replaceUser(db, clientOf(request), params.id, body, effectsOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.patchUserRoute,
      async ({ params, body }, request) =>
        users.patchUser(db, clientOf(request), params.id, body, effectsOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.deleteUserRoute,
      async ({ params }, request, reply) => {
        await users.deleteUser(db, clientOf(request), params.id, effectsOf(request));
        return reply.status(204).send();
      },
      authenticate,
    );

    serve(
      scim,
      contracts.listGroupsRoute,
      async ({ query }, request) =>
        groups.listGroups(
          db,
          clientOf(request),
          {
            ...query,
            excludeMembers: /(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? ''),
          },
          baseUrlOf(request),
        ),
      authenticate,
    );
    serve(
      scim,
      contracts.createGroupRoute,
      async ({ body }, request, reply) => {
        const created = await groups.createGroup(db, clientOf(request), body, effectsOf(request));
        reply.status(201).header('location', created.meta.location);
        return created;
      },
      authenticate,
    );
    serve(
      scim,
      contracts.getGroupRoute,
      async ({ params }, request) => groups.getGroup(db, clientOf(request), params.id, baseUrlOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.replaceGroupRoute,
      async ({ params, body }, request) =>
        groups.replaceGroup(db, clientOf(request), params.id, body, effectsOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.patchGroupRoute,
      async ({ params, body }, request) =>
        groups.patchGroup(db, clientOf(request), params.id, body, effectsOf(request)),
      authenticate,
    );
    serve(
      scim,
      contracts.deleteGroupRoute,
      async ({ params }, request, reply) => {
        await groups.deleteGroup(db, clientOf(request), params.id);
        return reply.status(204).send();
      },
      authenticate,
    );
  });

  // The configuration editor's side: whether the client has a token, and a new one (shown once).
  serve(app, scimTokenStatusRoute, async ({ params }, request) =>
    tokenStatus(db, requirePermission(request, 'configuration:edit'), params.c, params.id),
  );
  serve(app, createScimTokenRoute, async ({ params }, request) =>
    createToken(db, requirePermission(request, 'configuration:edit'), params.c, params.id),
  );
}
