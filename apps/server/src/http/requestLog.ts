import type { FastifyInstance } from 'fastify';

// One JSON line per request: request id, method, path, status, duration and who asked. Never the
// query string (signed upload links, set-password and confirmation tokens travel there), never
// headers or bodies (cookies, bearer tokens, passwords).

export function installRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        path: request.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.actor?.id,
      },
      'request',
    );
  });
}
