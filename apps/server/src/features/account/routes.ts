import { type ChangePasswordView, DEFAULT_PASSWORD_POLICY, userFormSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { notFound } from '../../http/errors.js';
import { SESSION_COOKIE, setSessionCookie } from '../../http/session.js';
import { baseUrlOf, requireSignedIn, safeReturnUrl, sendView } from '../../http/views.js';
import { requireActor, signedInOnly } from '../auth/index.js';
import { confirmAccountEmail } from './confirmation.js';
import { changePasswordAndSignIn } from './password.js';
import { getAccountView, getRegistrationView, registerAccount, updateAccount } from './service.js';

const actionQuery = z.object({ action: z.string().max(20).optional() });
const confirmQuery = z.object({ token: z.string().max(200).default('') });
const changePasswordQuery = z.object({
  username: z.string().max(200).optional(),
  'return-url': z.string().max(2000).optional(),
});
const changePasswordBody = z.object({
  username: z.string().trim().min(1, 'Username is required.').max(200),
  password: z.string().min(1, 'Password is required.').max(1000),
  newPassword: z.string().min(1, 'Password is required.').max(200),
  returnUrl: z.string().max(2000).optional(),
});

export function accountRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const handling = () => ({ enabled: deps.views.features.singleSignOn?.enablePasswordHandling !== false });

  r.get('/account', { schema: { querystring: actionQuery } }, async (request, reply) => {
    if (!requireSignedIn(request, reply)) return reply;
    const view = await getAccountView(deps.db, requireActor(request), handling(), request.query.action);
    return sendView(request, reply, deps.views, view);
  });

  r.post('/account', { onRequest: signedInOnly, schema: { body: userFormSchema } }, async (request) =>
    updateAccount(
      deps.db,
      requireActor(request),
      handling(),
      request.body,
      {
        baseUrl: baseUrlOf(request, deps.config.publicUrl),
        ip: request.ip,
      },
      deps.live,
    ),
  );

  r.get('/account/create', async (request, reply) => {
    if (!deps.config.selfRegistration) throw notFound('Self-registration is not offered.');
    return sendView(request, reply, deps.views, await getRegistrationView(deps.db));
  });

  r.post('/account/create', { schema: { body: userFormSchema } }, async (request) => {
    if (!deps.config.selfRegistration) throw notFound('Self-registration is not offered.');
    return registerAccount(deps.db, request.body, {
      baseUrl: baseUrlOf(request, deps.config.publicUrl),
      ip: request.ip,
      homeScope: deps.config.selfRegistrationScope,
    });
  });

  r.get('/account/confirm', { schema: { querystring: confirmQuery } }, async (request, reply) => {
    const view = await confirmAccountEmail(deps.db, request.query.token);
    return sendView(request, reply, deps.views, view, view.confirmed ? 200 : 400);
  });

  r.get(
    '/account/change-password',
    { schema: { querystring: changePasswordQuery } },
    async (request, reply) =>
      sendView(request, reply, deps.views, {
        $type: 'changePassword',
        title: 'Change Password',
        username: request.query.username ?? '',
        returnUrl: safeReturnUrl(request.query['return-url']),
        passwordPolicy: DEFAULT_PASSWORD_POLICY,
      } satisfies ChangePasswordView),
  );

  r.post('/account/change-password', { schema: { body: changePasswordBody } }, async (request, reply) => {
    const token = await changePasswordAndSignIn(
      deps.db,
      deps.config,
      {
        username: request.body.username,
        password: request.body.password,
        newPassword: request.body.newPassword,
        ip: request.ip,
        userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
        previousToken: request.cookies[SESSION_COOKIE],
      },
      deps.live,
    );
    setSessionCookie(request, reply, deps.config, token);
    return { ok: true, returnUrl: safeReturnUrl(request.body.returnUrl) };
  });
}
