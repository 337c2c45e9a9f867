import { emailSchema, type ForgotPasswordView } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { baseUrlOf, sendView } from '../../http/views.js';
import { getSetPasswordView, requestPasswordReset, setPasswordWithToken } from './service.js';

const resetBody = z.object({ email: emailSchema });
const setBody = z.object({
  token: z.string().min(10, 'The link is incomplete.').max(200),
  password: z.string().min(1, 'A password is required.').max(200),
  repeat: z.string().max(200).optional(),
});

export function passwordResetRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/forgot-password', async (request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'forgotPassword',
      title: 'Forgot Password',
    } satisfies ForgotPasswordView),
  );

  r.post('/reset-password', { schema: { body: resetBody } }, async (request) =>
    requestPasswordReset(deps.db, deps.jobs, {
      email: request.body.email,
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

  r.post('/set-password', { schema: { body: setBody } }, async (request) =>
    setPasswordWithToken(deps.db, request.body, deps.live),
  );
}
