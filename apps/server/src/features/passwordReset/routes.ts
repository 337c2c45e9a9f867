import { type ForgotPasswordView, resetPasswordRoute, setPasswordRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../http/deps.js';
import { forbidden } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { baseUrlOf, sendView } from '../../http/views.js';
import { getSetPasswordView, requestPasswordReset, setPasswordWithToken } from './service.js';

export const PASSWORDS_OFF = 'Passwords are not used here: sign in using SSO.';

export function passwordResetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // With single sign-on and password handling off a password can never be used, so no reset link is
  // mailed: to nobody at all, or only to the break-glass account when one is configured.
  const sso = deps.config.sso;
  const passwordsOff = sso !== undefined && !sso.passwordHandling;
  const onlyUserId = passwordsOff ? sso?.breakGlassUser : undefined;
  const refused = passwordsOff && onlyUserId === undefined;

  r.get('/forgot-password', async (request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'forgotPassword',
      title: 'Forgot Password',
      ...(refused ? { passwordsOff: true } : {}),
    } satisfies ForgotPasswordView),
  );

  serve(app, resetPasswordRoute, async ({ body }, request) => {
    if (refused) throw forbidden(PASSWORDS_OFF);
    return requestPasswordReset(deps.db, deps.jobs, {
      email: body.email,
      ip: request.ip,
      baseUrl: baseUrlOf(request, deps.config.publicUrl),
      ...(onlyUserId === undefined ? {} : { onlyUserId }),
    });
  });

  r.get(
    '/set-password',
    { schema: { querystring: z.object({ token: z.string().max(200).optional() }) } },
    async (request, reply) =>
      sendView(request, reply, deps.views, await getSetPasswordView(deps.db, request.query.token)),
  );

  serve(app, setPasswordRoute, async ({ body }) => setPasswordWithToken(deps.db, body, deps.live));
}
