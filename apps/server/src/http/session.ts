import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Actor } from './actor.js';
import { isPublicApiPath } from './csrf.js';
import type { SessionCache } from './sessionCache.js';

export const SESSION_COOKIE = 'dossier_session';
/** A password sign-in waiting for its second factor's code (never a session). */
export const CHALLENGE_COOKIE = 'dossier_signin_challenge';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | undefined;
    /** The user of a session whose password must be changed first: it acts as no one meanwhile. */
    passwordChangeOf: string | undefined;
  }
}

/** Resolves the session cookie of every request into `request.actor`, through the session cache. */
export function installSession(app: FastifyInstance, sessions: SessionCache): void {
  app.decorateRequest('actor', undefined);
  app.decorateRequest('passwordChangeOf', undefined);
  app.addHook('onRequest', async (request) => {
    // The public API never acts on a cookie: a browser's session must not ride along with a call.
    const [path = ''] = request.url.split('?');
    if (isPublicApiPath(path)) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const actor = await sessions.actorOf(token);
    // "Must change password at next sign-in" holds for the sessions already open too.
    if (actor?.passwordMustChange) request.passwordChangeOf = actor.id;
    else request.actor = actor;
  });
}

/** Where a session whose password must be changed is sent, coming back to the address after. */
export function changePasswordAddress(username: string, returnUrl: string): string {
  return `/account/change-password?${new URLSearchParams({ username, 'return-url': returnUrl })}`;
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

export function setChallengeCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  token: string,
) {
  reply.setCookie(CHALLENGE_COOKIE, token, {
    path: '/signin',
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request, config),
    maxAge: 5 * 60,
  });
}

export const DEVICE_COOKIE = 'dossier_device';
export const REMEMBER_DEVICE_DAYS = 30;

/** A browser remembered after its second step (SIGNIN_REMEMBER_DEVICE): read by the password sign-in only. */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, config: Config, token: string) {
  reply.setCookie(DEVICE_COOKIE, token, {
    path: '/signin',
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request, config),
    maxAge: REMEMBER_DEVICE_DAYS * 24 * 3600,
  });
}

export function clearChallengeCookie(request: FastifyRequest, reply: FastifyReply, config: Config) {
  reply.clearCookie(CHALLENGE_COOKIE, {
    path: '/signin',
    httpOnly: true,
    sameSite: 'strict',
    secure: isHttps(request, config),
  });
}

export function isHttps(request: FastifyRequest, config: Config): boolean {
  return request.protocol === 'https' || (config.publicUrl?.startsWith('https:') ?? false);
}
