import {
  accountPageRoute,
  type ChangePasswordView,
  changePasswordPageRoute,
  changePasswordRoute,
  confirmAccountRoute,
  confirmSecondFactorRoute,
  DEFAULT_PASSWORD_POLICY,
  enrolSecondFactorRoute,
  regenerateRecoveryCodesRoute,
  registerAccountRoute,
  registrationPageRoute,
  removeSecondFactorRoute,
  secondFactorsRoute,
  updateAccountRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { SESSION_COOKIE, setChallengeCookie, setSessionCookie } from '../../http/session.js';
import { baseUrlOf, requireSignedIn, safeReturnUrl, sendView } from '../../http/views.js';
import {
  beginEnrolment,
  confirmEnrolment,
  listSecondFactors,
  regenerateRecoveryCodes,
  removeSecondFactor,
  requireActor,
  signedInOnly,
} from '../auth/index.js';
import { confirmAccountEmail } from './confirmation.js';
import { changePasswordAndSignIn } from './password.js';
import { getAccountView, getRegistrationView, registerAccount, updateAccount } from './service.js';

/** What follows a password sign-in (single sign-on's break-glass record, wired in app.ts). */
export type AfterPasswordSignIn = (
  userId: string,
  client: { ip: string; userAgent: string | null },
) => Promise<void>;

export function accountRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  afterPasswordSignIn?: AfterPasswordSignIn,
): void {
  const handling = () => ({ enabled: deps.views.features.singleSignOn?.enablePasswordHandling !== false });

  serve(app, accountPageRoute, async ({ query }, request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const view = await getAccountView(deps.db, requireActor(request), handling(), query.action);
    return sendView(request, reply, deps.views, view);
  });

  serve(
    app,
    updateAccountRoute,
    async ({ body }, request) =>
      updateAccount(
        deps.db,
        requireActor(request),
        handling(),
        body,
        {
          baseUrl: baseUrlOf(request, deps.config.publicUrl),
          ip: request.ip,
        },
        deps.live,
      ),
    { onRequest: signedInOnly },
  );

  // Second factors of the own account (issue 35): enrolment, the list, removal, recovery codes.
  serve(
    app,
    secondFactorsRoute,
    async (_input, request) => listSecondFactors(deps.db, requireActor(request).id),
    {
      onRequest: signedInOnly,
    },
  );

  serve(
    app,
    enrolSecondFactorRoute,
    async (_input, request) => {
      const actor = requireActor(request);
      return beginEnrolment(deps.db, { id: actor.id, email: actor.email });
    },
    { onRequest: signedInOnly },
  );

  serve(
    app,
    confirmSecondFactorRoute,
    async ({ params, body }, request) =>
      confirmEnrolment(deps.db, deps.live, requireActor(request), { factorId: params.factorId, ...body }),
    { onRequest: signedInOnly },
  );

  serve(
    app,
    removeSecondFactorRoute,
    async ({ params, body }, request) =>
      removeSecondFactor(deps.db, deps.live, requireActor(request), { factorId: params.factorId, ...body }),
    { onRequest: signedInOnly },
  );

  serve(
    app,
    regenerateRecoveryCodesRoute,
    async ({ body }, request) => regenerateRecoveryCodes(deps.db, requireActor(request), body.code),
    { onRequest: signedInOnly },
  );

  serve(app, registrationPageRoute, async (_input, request, reply) => {
    if (!deps.config.selfRegistration) throw notFound('Self-registration is not offered.');
    return sendView(request, reply, deps.views, await getRegistrationView(deps.db));
  });

  serve(app, registerAccountRoute, async ({ body }, request) => {
    if (!deps.config.selfRegistration) throw notFound('Self-registration is not offered.');
    return registerAccount(deps.db, body, {
      baseUrl: baseUrlOf(request, deps.config.publicUrl),
      ip: request.ip,
      homeScope: deps.config.selfRegistrationScope,
    });
  });

  serve(app, confirmAccountRoute, async ({ query }, request, reply) => {
    const view = await confirmAccountEmail(deps.db, query.token);
    return sendView(request, reply, deps.views, view, view.confirmed ? 200 : 400);
  });

  serve(app, changePasswordPageRoute, async ({ query }, request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'changePassword',
      title: 'Change Password',
      username: query.username ?? '',
      returnUrl: safeReturnUrl(query['return-url']),
      passwordPolicy: DEFAULT_PASSWORD_POLICY,
    } satisfies ChangePasswordView),
  );

  serve(app, changePasswordRoute, async ({ body }, request, reply) => {
    const client = { ip: request.ip, userAgent: request.headers['user-agent']?.slice(0, 500) ?? null };
    const result = await changePasswordAndSignIn(
      deps.db,
      deps.config,
      {
        username: body.username,
        password: body.password,
        newPassword: body.newPassword,
        ...client,
        previousToken: request.cookies[SESSION_COOKIE],
      },
      deps.live,
    );
    const returnUrl = safeReturnUrl(body.returnUrl);
    if ('challenge' in result) {
      // A user with a second factor: its code (or passkey) next, on the sign-in page's second step.
      setChallengeCookie(request, reply, deps.config, result.challenge);
      return {
        ok: true as const,
        returnUrl: `/signin?${new URLSearchParams({ step: 'code', 'return-url': returnUrl })}`,
      };
    }
    // This step signs in with a password too: with passwords off only the break-glass account gets
    // here (features/sso refuses the others), and its use is recorded like a sign-in.
    await afterPasswordSignIn?.(result.userId, client);
    setSessionCookie(request, reply, deps.config, result.token);
    // A second factor the user's roles require comes first: the account page enrols it.
    return { ok: true as const, returnUrl: result.mustEnrol ? '/account' : returnUrl };
  });
}
