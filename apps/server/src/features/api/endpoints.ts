import type { ApiScope } from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AppDeps } from '../../app.js';
import type { Db } from '../../db/database.js';
import { forbidden } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { apiActorOf } from './actor.js';
import { authenticateApiCall } from './auth.js';
import type { ApiKey } from './keys.js';
import { takeApiRate } from './rateLimit.js';
import { upsertApiUser } from './repository.js';

// One definition per endpoint, used twice: to register the Fastify route (with its zod schemas and
// the API scope it needs) and to describe it in the OpenAPI document, so the two cannot drift.

export interface ApiContext {
  deps: AppDeps;
  key: ApiKey;
  actor: Actor;
  reply: FastifyReply;
  /** This server as the client reached it (PUBLIC_URL when set), for absolute links. */
  baseUrl: string;
}

export interface ApiResponse {
  /** 200 unless given (201 for what a call creates). */
  status?: 200 | 201;
  description: string;
  schema?: z.ZodType;
  /** A file download instead of JSON. */
  binary?: boolean;
}

export interface ApiEndpoint {
  method: 'GET' | 'POST' | 'PUT';
  /** Fastify path syntax (`:param`), under /api/v1. */
  path: string;
  scope: ApiScope;
  tag: string;
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  response: ApiResponse;
  // biome-ignore lint/suspicious/noExplicitAny: each definition's handler is checked by defineEndpoint.
  handler(input: { params: any; query: any; body: any }, ctx: ApiContext): Promise<unknown>;
}

/** Types the handler's input from the endpoint's own schemas. */
export function defineEndpoint<
  P extends z.ZodObject | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(
  endpoint: Omit<ApiEndpoint, 'params' | 'query' | 'body' | 'handler'> & {
    params?: P;
    query?: Q;
    body?: B;
    handler(
      input: {
        params: P extends z.ZodType ? z.output<P> : undefined;
        query: Q extends z.ZodType ? z.output<Q> : undefined;
        body: B extends z.ZodType ? z.output<B> : undefined;
      },
      ctx: ApiContext,
    ): Promise<unknown>;
  },
): ApiEndpoint {
  return endpoint as ApiEndpoint;
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCall: { key: ApiKey; actor: Actor } | undefined;
  }
}

const ensuredUsers = new WeakMap<object, Set<string>>();

/** The key's service user exists with its current name and scope (written only when it changed). */
async function ensureApiUser(db: Db, actor: Actor): Promise<void> {
  const seen = ensuredUsers.get(db) ?? new Set<string>();
  ensuredUsers.set(db, seen);
  const mark = `${actor.id}\n${actor.name}\n${actor.scope}`;
  if (seen.has(mark)) return;
  await upsertApiUser(db, { id: actor.id, name: actor.name, scope: actor.scope });
  seen.add(mark);
}

/**
 * Authenticates the call before its body is even parsed (a refused call touches nothing), counts it
 * against the key's rate limit, and refuses a key without the endpoint's API scope.
 */
function guard(deps: AppDeps, scope: ApiScope) {
  return async (request: FastifyRequest) => {
    const { key } = await authenticateApiCall(
      deps.db,
      request.headers.authorization,
      deps.config.api.audience,
    );
    await takeApiRate(
      deps.db,
      'api.calls',
      `${key.configurationId}:${key.kid}`,
      deps.config.api.rateLimitPerMinute,
    );
    if (!key.apiScopes.includes(scope)) throw forbidden(`This API key lacks the API scope ${scope}.`);
    const actor = apiActorOf(key);
    await ensureApiUser(deps.db, actor);
    request.apiCall = { key, actor };
  };
}

export function registerEndpoints(app: FastifyInstance, deps: AppDeps, endpoints: ApiEndpoint[]): void {
  app.decorateRequest('apiCall', undefined);
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const endpoint of endpoints) {
    r.route({
      method: endpoint.method,
      url: endpoint.path,
      onRequest: guard(deps, endpoint.scope),
      // Only the parts an endpoint has (an undefined part makes Fastify warn at start).
      schema: {
        ...(endpoint.params ? { params: endpoint.params } : {}),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.body ? { body: endpoint.body } : {}),
      },
      handler: async (request, reply) => {
        const call = request.apiCall;
        if (!call) throw forbidden();
        reply.status(endpoint.response.status ?? 200);
        const input = { params: request.params, query: request.query, body: request.body };
        const baseUrl = (deps.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(
          /\/+$/,
          '',
        );
        return endpoint.handler(input, { deps, key: call.key, actor: call.actor, reply, baseUrl });
      },
    });
  }
}
