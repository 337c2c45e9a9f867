import type { ApiScope, RouteAnswer, RouteContract, RouteParsed } from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { forbidden } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import type { Actor } from '../auth/index.js';
import { apiActorOf } from './actor.js';
import { authenticateApiCall } from './auth.js';
import type { ApiKey } from './keys.js';
import { takeApiRate } from './rateLimit.js';
import { upsertApiUser } from './repository.js';

// An endpoint of the public API is a route contract (contracts.ts), served like every other route
// (http/serve.ts: its schemas check the input, and in tests the answer is checked against it), plus
// what only the API has: the API scope it needs, and the tag and texts of the OpenAPI document,
// which is made from the same contract (openapi.ts), so the route and its description cannot drift.

export interface ApiContext {
  deps: AppDeps;
  key: ApiKey;
  actor: Actor;
  reply: FastifyReply;
  /** This server as the client reached it (PUBLIC_URL when set), for absolute links. */
  baseUrl: string;
}

export interface ApiEndpoint<C extends RouteContract = RouteContract> {
  route: C;
  scope: ApiScope;
  tag: string;
  summary: string;
  description?: string;
  /** 200 unless given (201 for what a call creates). */
  status?: 200 | 201;
  /** What the successful answer is, in the OpenAPI document. */
  answers: string;
  /** A file download instead of JSON (the contract's answer is then z.unknown()). */
  download?: boolean;
  handler(input: RouteParsed<C>, ctx: ApiContext): Promise<RouteAnswer<C> | FastifyReply>;
}

/** Types the handler's input and answer from the endpoint's contract. */
export function defineEndpoint<C extends RouteContract>(endpoint: ApiEndpoint<C>): ApiEndpoint<C> {
  return endpoint;
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
  for (const endpoint of endpoints) {
    serve(
      app,
      endpoint.route,
      async (input, request, reply) => {
        const call = request.apiCall;
        if (!call) throw forbidden();
        reply.status(endpoint.status ?? 200);
        const baseUrl = (deps.config.publicUrl ?? `${request.protocol}://${request.host}`).replace(
          /\/+$/,
          '',
        );
        return endpoint.handler(input, { deps, key: call.key, actor: call.actor, reply, baseUrl });
      },
      { onRequest: guard(deps, endpoint.scope) },
    );
  }
}
