import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Actor } from './actor.js';
import { isPublicApiPath } from './csrf.js';

export const SESSION_COOKIE = 'dossier_session';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | undefined;
  }
}

/** Turns a session cookie's token into its actor; the auth feature's, wired in by app.ts. */
export type ResolveSession = (db: Db, config: Config, token: string) => Promise<Actor | undefined>;

/** Resolves the session cookie of every request into `request.actor`. */
export function installSession(
  app: FastifyInstance,
  db: Db,
  config: Config,
  resolveSession: ResolveSession,
): void {
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', async (request) => {
    // The public API never acts on a cookie: a browser's session must not ride along with a call.
    const [path = ''] = request.url.split('?');
    if (isPublicApiPath(path)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (token) request.actor = await resolveSession(db, config, token);
  });
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  token: string,
) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request, config),
    maxAge: config.session.absoluteHours * 3600,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, config: Config) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request, config),
  });
}

function isHttps(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}
