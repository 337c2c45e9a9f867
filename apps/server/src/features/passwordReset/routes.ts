import { type ForgotPasswordView, resetPasswordRoute, setPasswordRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { baseUrlOf, sendView } from '../../http/views.js';
import { getSetPasswordView, requestPasswordReset, setPasswordWithToken } from './service.js';

export function passwordResetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/forgot-password', async (request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'forgotPassword',
      title: 'Forgot Password',
    } satisfies ForgotPasswordView),
  );

  serve(app, resetPasswordRoute, async ({ body }, request) =>
    requestPasswordReset(deps.db, deps.jobs, {
      email: body.email,
      ip: request.ip,
      baseUrl: baseUrlOf(request, deps.config.publicUrl),
    }),
  );

  r.get(
    '/set-password',
    { schema: { querystring: z.object({ token: z.string().max(200).optional() }) } },
    async (request, reply) =>
      sendView(request, reply, deps.views, await getSetPasswordView(deps.db, request.query.token)),
  );

  serve(app, setPasswordRoute, async ({ body }) => setPasswordWithToken(deps.db, body, deps.live));
}
