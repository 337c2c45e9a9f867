import {
  type SignInView,
  signInPageRoute,
  signInRoute,
  signInSecondFactorRoute,
  signOutRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { toUserState } from '../../http/actor.js';
import type { AppDeps } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import {
  CHALLENGE_COOKIE,
  clearChallengeCookie,
  clearSessionCookie,
  DEVICE_COOKIE,
  SESSION_COOKIE,
  setChallengeCookie,
  setDeviceCookie,
  setSessionCookie,
} from '../../http/session.js';
import { baseUrlOf, safeReturnUrl, sendView, wantsJson } from '../../http/views.js';
import { passkeyRoutes } from './passkeyRoutes.js';
import { challengeUserOf, holdsPasskey } from './passkeys.js';
import {
  completeChallenge,
  SECOND_STEP_FAILURE_TEXT,
  type SecondStepFailure,
  secondStepFailureMessage,
  signInWithPassword,
} from './secondStep.js';
import {
  SIGNIN_FAILURE_TEXT,
  type SigninFailure,
  sessionIdOf,
  signinFailureMessage,
  signOut,
} from './service.js';

/** The password was right, but the account may not sign in (yet): 403 to the client. */
const FORBIDDEN_FAILURES = new Set<SigninFailure>(['unconfirmed', 'ipRange', 'passwordMustChange']);

function failureText(code: string | undefined, retry: string | undefined): string | undefined {
  if (code === undefined) return undefined;
  // The page shows only texts of its own, never text taken from the address; `retry` is a number
  // of seconds, read as a number only.
  const seconds = retry && /^\d{1,6}$/.test(retry) ? Number(retry) : undefined;
  if (Object.hasOwn(SIGNIN_FAILURE_TEXT, code)) return signinFailureMessage(code as SigninFailure, seconds);
  if (Object.hasOwn(SECOND_STEP_FAILURE_TEXT, code))
    return secondStepFailureMessage(code as SecondStepFailure, seconds);
  return 'Sign-in failed.';
}

/** Where a refused form post goes back to: the sign-in page with the failure's code and wait. */
function retryQuery(query: URLSearchParams, retryAfterSeconds: number | undefined): URLSearchParams {
  if (retryAfterSeconds) query.set('retry', String(retryAfterSeconds));
  return query;
}

/**
 * Where a signed-out browser goes instead of the sign-in page: the identity provider's sign-out
 * page for a session begun there (single sign-on, wired in app.ts so authentication does not depend
 * on it).
 */
export type ProviderSignOut = (sessionId: string, signInUrl: string) => Promise<string | undefined>;

/** What follows a password sign-in (single sign-on's break-glass record, wired in app.ts). */
export type AfterPasswordSignIn = (
  userId: string,
  client: { ip: string; userAgent: string | null },
) => Promise<void>;

export function authRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  providerSignOut?: ProviderSignOut,
  afterPasswordSignIn?: AfterPasswordSignIn,
): void {
  const sso = deps.config.sso;
  // With passwords off, the password form is shown only at /signin?local=1, and only when a
  // break-glass account is configured (it alone may use it).
  const breakGlassForm = (local: string | undefined) =>
    sso !== undefined && !sso.passwordHandling && sso.breakGlassUser !== undefined && local === '1';

  /** The second step of the page: the code, and a passkey where the waiting user holds one. */
  const secondStepOf = async (step: string | undefined, challenge: string | undefined) => {
    if (step !== 'code' || !challenge) return {};
    const userId = await challengeUserOf(deps.db, challenge);
    if (!userId) return { secondStep: true };
    return {
      secondStep: true,
      ...(await holdsPasskey(deps.db, userId)),
      ...(deps.config.signin.rememberDevice ? { rememberDevice: true } : {}),
    };
  };

  serve(app, signInPageRoute, async ({ query }, request, reply) => {
    const returnUrl = safeReturnUrl(query['return-url']);
    if (request.actor && !wantsJson(request)) return reply.redirect(returnUrl, 303);
    return sendView(request, reply, deps.views, {
      $type: 'signin',
      title: 'Sign In',
      err: failureText(query.err, query.retry),
      returnUrl,
      canRegister: deps.config.selfRegistration,
      ...(breakGlassForm(query.local) ? { breakGlass: true } : {}),
      ...(await secondStepOf(query.step, request.cookies[CHALLENGE_COOKIE])),
      ...(deps.config.signin.passkeySignIn ? { passkeySignIn: true } : {}),
    } satisfies SignInView);
  });

  serve(app, signInSecondFactorRoute, async ({ body }, request, reply) => {
    const returnUrl = safeReturnUrl(body['return-url']);
    const challenge = request.cookies[CHALLENGE_COOKIE];
    const client = { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 500) ?? null };
    let result: { token: string; userId: string; device?: string };
    try {
      if (!challenge) throw new HttpError(401, secondStepFailureMessage('expired'), 'expired');
      result = await completeChallenge(deps.db, deps.config, deps.live, {
        challenge,
        code: body.code,
        remember: body.remember === '1',
        ...client,
        previousToken: request.cookies[SESSION_COOKIE],
      });
    } catch (error) {
      if (wantsJson(request) || !(error instanceof HttpError)) throw error;
      const expired = error.code === 'expired' || error.code === 'locked';
      const query = new URLSearchParams({ err: String(error.code), 'return-url': returnUrl });
      retryQuery(query, Number(error.headers?.['retry-after']) || undefined);
      if (!expired) query.set('step', 'code');
      return reply.redirect(`/signin?${query}`, 303);
    }
    clearChallengeCookie(request, reply, deps.config);
    if (result.device) setDeviceCookie(request, reply, deps.config, result.device);
    await afterPasswordSignIn?.(result.userId, client);
    setSessionCookie(request, reply, deps.config, result.token);
    if (!wantsJson(request)) return reply.redirect(returnUrl, 303);
    const actor = await deps.resolveActor(result.token);
    return { user: actor ? toUserState(actor) : null };
  });

  serve(app, signInRoute, async ({ body }, request, reply) => {
    const { username, password } = body;
    const returnUrl = safeReturnUrl(body['return-url']);
    const client = { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 500) ?? null };
    const result = await signInWithPassword(deps.db, deps.config, {
      username,
      password,
      ...client,
      previousToken: request.cookies[SESSION_COOKIE],
      device: request.cookies[DEVICE_COOKIE],
    });
    if (result.ok && 'challenge' in result) {
      // The right password of a user with a second factor: no session until the code.
      setChallengeCookie(request, reply, deps.config, result.challenge);
      if (wantsJson(request))
        return {
          user: null,
          secondFactor: true as const,
          // The overlay offers the box the sign-in page's second step offers.
          ...(deps.config.signin.rememberDevice ? { rememberDevice: true as const } : {}),
        };
      const query = new URLSearchParams({ step: 'code', 'return-url': returnUrl });
      return reply.redirect(`/signin?${query}`, 303);
    }
    if (!result.ok) {
      if (wantsJson(request)) {
        const status =
          result.failure === 'tooMany' ? 429 : FORBIDDEN_FAILURES.has(result.failure) ? 403 : 401;
        const headers = result.retryAfterSeconds
          ? { 'retry-after': String(result.retryAfterSeconds) }
          : undefined;
        const message = signinFailureMessage(result.failure, result.retryAfterSeconds);
        throw new HttpError(status, message, result.failure, undefined, headers);
      }
      if (result.failure === 'passwordMustChange') {
        // The right password, but it must be replaced first: the change-password step.
        const query = new URLSearchParams({ username, 'return-url': returnUrl });
        return reply.redirect(`/account/change-password?${query}`, 303);
      }
      const query = new URLSearchParams({ err: result.failure, 'return-url': returnUrl });
      retryQuery(query, result.retryAfterSeconds);
      if (breakGlassForm(body.local)) query.set('local', '1');
      return reply.redirect(`/signin?${query}`, 303);
    }
    await afterPasswordSignIn?.(result.userId, client);
    setSessionCookie(request, reply, deps.config, result.token);
    // A second factor the user's roles require comes before anything else: the account page enrols it.
    const mustEnrol = 'mustEnrol' in result && result.mustEnrol === true;
    if (!wantsJson(request)) return reply.redirect(mustEnrol ? '/account' : returnUrl, 303);
    const actor = await deps.resolveActor(result.token);
    return { user: actor ? toUserState(actor) : null, ...(mustEnrol ? { mustEnrol: true as const } : {}) };
  });

  passkeyRoutes(app, deps);

  serve(app, signOutRoute, async (_input, request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    // A session begun through single sign-on signs out at the provider too, which sends the browser
    // back to the sign-in page (RP-initiated logout); read before the session is gone.
    let providerUrl: string | undefined;
    if (token) {
      const signInUrl = new URL('/signin', baseUrlOf(request, deps.config.publicUrl)).toString();
      providerUrl = await providerSignOut?.(sessionIdOf(token), signInUrl);
      const sessionId = await signOut(deps.db, token);
      await deps.live.endSession(deps.db, sessionId);
    }
    clearSessionCookie(request, reply, deps.config);
    if (!wantsJson(request)) return reply.redirect(providerUrl ?? '/signin', 303);
    return providerUrl ? { ok: true as const, redirect: providerUrl } : { ok: true as const };
  });
}
