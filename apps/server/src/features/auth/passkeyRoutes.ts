import {
  addPasskeyRoute,
  passkeyRegistrationOptionsRoute,
  passkeySignInOptionsRoute,
  passkeySignInRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { toUserState } from '../../http/actor.js';
import type { AppDeps } from '../../http/deps.js';
import { requireActor, signedInOnly } from '../../http/guards.js';
import { serve } from '../../http/serve.js';
import {
  CHALLENGE_COOKIE,
  clearChallengeCookie,
  SESSION_COOKIE,
  setDeviceCookie,
  setSessionCookie,
} from '../../http/session.js';
import { baseUrlOf, safeReturnUrl } from '../../http/views.js';
import {
  addPasskey,
  passkeyRegistrationOptions,
  passkeySignInOptions,
  type RelyingParty,
  signInWithPasskey,
} from './passkeys.js';

// Passkeys (issue 35): enrolling one on the account page, and signing in with one. The browser
// library (@simplewebauthn/browser) calls these with JSON; there is no plain-form variant.

function relyingParty(request: FastifyRequest, publicUrl: string | undefined): RelyingParty {
  const url = new URL(baseUrlOf(request, publicUrl));
  return { id: url.hostname, origin: url.origin };
}

export function passkeyRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(
    app,
    passkeyRegistrationOptionsRoute,
    async (_input, request) =>
      passkeyRegistrationOptions(
        deps.db,
        relyingParty(request, deps.config.publicUrl),
        requireActor(request),
      ),
    { onRequest: signedInOnly },
  );

  serve(
    app,
    addPasskeyRoute,
    async ({ body }, request) =>
      addPasskey(
        deps.db,
        deps.live,
        relyingParty(request, deps.config.publicUrl),
        requireActor(request),
        body,
      ),
    { onRequest: signedInOnly },
  );

  serve(app, passkeySignInOptionsRoute, async (_input, request) =>
    passkeySignInOptions(
      deps.db,
      deps.config,
      relyingParty(request, deps.config.publicUrl),
      request.cookies[CHALLENGE_COOKIE],
      request.ip,
    ),
  );

  serve(app, passkeySignInRoute, async ({ body }, request, reply) => {
    const result = await signInWithPasskey(
      deps.db,
      deps.config,
      deps.live,
      relyingParty(request, deps.config.publicUrl),
      {
        response: body.response,
        challengeCookie: request.cookies[CHALLENGE_COOKIE],
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        previousToken: request.cookies[SESSION_COOKIE],
        remember: body.remember === '1',
      },
    );
    clearChallengeCookie(request, reply, deps.config);
    if (result.device) setDeviceCookie(request, reply, deps.config, result.device);
    setSessionCookie(request, reply, deps.config, result.token);
    const actor = await deps.resolveActor(result.token);
    return { user: actor ? toUserState(actor) : null, redirect: safeReturnUrl(body['return-url']) };
  });
}
