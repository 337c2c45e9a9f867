import type { RouteAnswer, RouteContract, RouteParsed } from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// One way to define a route: from its contract in packages/core/src/contracts. The contract's
// schemas validate params, query and body (a bad value answers 400 with a message per field, through
// the one error handler), the handler gets them parsed and typed, and must answer the contract's
// answer type. With CHECK_ANSWERS (tests and journeys) every 2xx answer is parsed against the
// contract's answer schema, so an answer that drifts from what the web expects fails a test.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract the route was served from (http/serve.ts). */
    contract?: RouteContract;
  }
}

export type ServeHandler<C extends RouteContract> = (
  input: RouteParsed<C>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<RouteAnswer<C> | FastifyReply>;

export interface ServeOptions {
  /** Runs before validation, e.g. a rate limit or an API key check. */
  onRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  /** The body limit of this route, when not the app's. */
  bodyLimit?: number;
}

/** Registers `contract`'s route on `app` with `handler`. */
export function serve<C extends RouteContract>(
  app: FastifyInstance,
  contract: C,
  handler: ServeHandler<C>,
  options: ServeOptions = {},
): void {
  app.route({
    method: contract.method,
    url: contract.path,
    schema: {
      ...(contract.params && { params: contract.params }),
      ...(contract.query && { querystring: contract.query }),
      ...(contract.body && { body: contract.body }),
    },
    config: { contract },
    ...(options.onRequest && { onRequest: options.onRequest }),
    ...(options.bodyLimit && { bodyLimit: options.bodyLimit }),
    handler: (request, reply) =>
      handler(
        { params: request.params, query: request.query, body: request.body } as RouteParsed<C>,
        request,
        reply,
      ),
  });
}

/**
 * Tests and journeys: a 2xx answer of a route served from a contract must parse with its answer
 * schema; one that does not is answered 500 with the issues, which fails the test that called it.
 */
export function installAnswerCheck(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload) => {
    const contract = request.routeOptions.config.contract;
    if (!contract || reply.statusCode >= 300) return payload;
    // A page's first load in development asks for the whole initial state (X-Initial-State,
    // http/views.ts#sendView): the contract describes its view.
    const answer =
      request.headers['x-initial-state'] && payload && typeof payload === 'object' && 'view' in payload
        ? payload.view
        : payload;
    const checked = contract.answer.safeParse(answer);
    if (checked.success) return payload;
    throw new Error(
      `${contract.method} ${contract.path} answered outside its contract: ${JSON.stringify(checked.error.issues).slice(0, 2000)}`,
    );
  });
}
