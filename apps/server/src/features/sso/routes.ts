import {
  changePasswordRoute,
  type SsoErrorView,
  type SsoReauthenticatedView,
  signInPageRoute,
  ssoApplicationRoute,
  ssoBackchannelLogoutRoute,
  ssoCallbackRoute,
  ssoReauthenticatedRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { forbidden, notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { SESSION_COOKIE, setChallengeCookie, setSessionCookie } from '../../http/session.js';
import { baseUrlOf, requireSignedIn, safeReturnUrl, sendView } from '../../http/views.js';
import { toUserState } from '../auth/index.js';
import { isBreakGlassUser } from './breakGlass.js';
import { backchannelLogout } from './logout.js';
import { beginSsoSignIn, callbackUrl, finishSsoSignIn, SSO_FAILURE_TEXT } from './service.js';

export const SSO_ERROR_TEXT =
  'There was an error authenticating using your user profile from your SSO provider, please contact your System Administrator.';

export function ssoRoutes(app: FastifyInstance, deps: AppDeps): void {
  const sso = deps.config.sso;

  // The sign-in page's "Sign In Using SSO" is a GET form to /signin with sso=1 and return-url
  // (prompt=login: the provider asks who signs in, "Sign in as someone else" on the error page).
  app.addHook('onRequest', async (request, reply) => {
    if (request.routeOptions.url !== signInPageRoute.path) return;
    const query = request.query as { sso?: string; 'return-url'?: string; prompt?: string };
    if (request.method !== 'GET' || !query.sso) return;
    if (!sso) throw notFound('Single sign-on is not configured.');
    let target: URL;
    try {
      target = await beginSsoSignIn(
        deps.db,
        sso,
        callbackUrl(baseUrlOf(request, deps.config.publicUrl)),
        safeReturnUrl(query['return-url']),
        query.prompt === 'login' ? 'login' : undefined,
      );
    } catch (cause) {
      // The provider cannot be reached (or answers nonsense): the SSO error page, not a bare 500.
      request.log.warn({ err: cause }, 'single sign-on could not start');
      return sendSsoError(request, reply, SSO_FAILURE_TEXT.unreachable, 503);
    }
    return reply.redirect(target.toString(), 303);
  });

  // With password handling off, passwords are refused outright, but for the break-glass account
  // named by SSO_BREAK_GLASS_USER (the body is parsed by now, before the route's own validation):
  // the sign-in and the change-password step, which signs in too.
  const passwordPaths = new Set([signInPageRoute.path, changePasswordRoute.path]);
  app.addHook('preValidation', async (request) => {
    if (request.method !== 'POST' || !passwordPaths.has(request.routeOptions.url ?? '')) return;
    if (!sso || sso.passwordHandling) return;
    const body = request.body as { username?: unknown } | undefined;
    const username = typeof body?.username === 'string' ? body.username.trim().toLowerCase() : '';
    if (!isBreakGlassUser(sso, username)) throw forbidden('Sign in using SSO.');
  });

  function sendSsoError(request: FastifyRequest, reply: FastifyReply, message: string, status: number) {
    return sendView(
      request,
      reply,
      deps.views,
      { $type: 'ssoError', title: 'Sign In', text: SSO_ERROR_TEXT, message } satisfies SsoErrorView,
      status,
    );
  }

  serve(app, ssoCallbackRoute, async (_input, request, reply) => {
    if (!sso) throw notFound('Single sign-on is not configured.');
    const outcome = await finishSsoSignIn(
      deps.db,
      deps.config,
      sso,
      new URL(request.url, callbackUrl(baseUrlOf(request, deps.config.publicUrl))),
      {
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        previousToken: request.cookies[SESSION_COOKIE],
      },
    );
    if (!outcome.ok) {
      request.log.warn({ reason: outcome.message, subject: outcome.subject }, 'single sign-on failed');
      return sendSsoError(request, reply, outcome.message, 401);
    }
    const returnUrl = safeReturnUrl(outcome.returnUrl);
    if ('challenge' in outcome) {
      // The provider asked for no second factor and the user holds one here: it follows.
      // A page that moves on by itself rather than a redirect: the challenge cookie is SameSite=Strict,
      // and a browser sends none on a redirect chain that began at the provider's site.
      setChallengeCookie(request, reply, deps.config, outcome.challenge);
      const next = `/signin?${new URLSearchParams({ step: 'code', 'return-url': returnUrl })}`.replaceAll(
        '&',
        '&amp;',
      );
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><title>Sign In</title><meta http-equiv="refresh" content="0;url=${next}"><a href="${next}">Continue</a>`,
        );
    }
    setSessionCookie(request, reply, deps.config, outcome.token);
    return reply.redirect(outcome.mustEnrol ? '/account' : returnUrl, 303);
  });

  // The provider's back-channel logout: authorised by its signed logout token alone (no cookie, no
  // CSRF header: isPublicApiPath). Answers as Back-Channel Logout 1.0 asks: 200, or 400 with a reason.
  serve(app, ssoBackchannelLogoutRoute, async ({ body }, request, reply) => {
    if (!sso) throw notFound('Single sign-on is not configured.');
    reply.header('cache-control', 'no-store');
    const outcome = await backchannelLogout(deps.db, deps.live, sso, body.logout_token);
    if (!outcome.ok) {
      request.log.warn({ reason: outcome.message }, 'back-channel logout refused');
      return reply.code(400).send({ error: 'invalid_request', error_description: outcome.message });
    }
    request.log.info({ ended: outcome.ended }, 'back-channel logout');
    return reply.code(200).send({});
  });

  // The window the sign-in overlay opened lands here and hands the user back to its opener.
  serve(app, ssoReauthenticatedRoute, async (_input, request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    return sendView(request, reply, deps.views, {
      $type: 'ssoReauthenticated',
      title: 'Signed In',
      user: toUserState(request.actor!),
    } satisfies SsoReauthenticatedView);
  });

  serve(app, ssoApplicationRoute, async ({ params }, request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const application = sso?.applications[params.index];
    if (!application) throw notFound('No such application.');
    return reply.redirect(application.url, 303);
  });
}
