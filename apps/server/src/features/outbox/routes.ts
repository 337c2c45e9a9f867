import { emailSchema, pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendStoredFile } from '../../files/routes.js';
import { notFound } from '../../http/errors.js';
import { sendRefusalPage, sendSignedInPage } from '../../http/pageView.js';
import { optional } from '../../http/query.js';
import { requireActor } from '../auth/index.js';
import { COUNT_CAP, MAIL_STATUSES } from './repository.js';
import {
  getOutboxMessageView,
  getOutboxPageView,
  openOutboxAttachment,
  resendMail,
  searchOutbox,
} from './service.js';

// The admin outbox: the page, GET /admin/outbox/search, one message's page and its action
// POST /admin/outbox/{id}/actions/resend ("Send again").

const searchQuery = pagingQuerySchema.extend({
  // Paging stops where counting stops.
  pageOffset: z.coerce.number().int().min(0).max(COUNT_CAP).default(0),
  status: optional(z.enum(MAIL_STATUSES, { error: 'Choose waiting, sent or failed.' })),
  to: optional(emailSchema),
});
const mailParams = z.object({ mailId: z.string().max(40) });
const actionParams = mailParams.extend({ action: z.string().max(40) });
const attachmentParams = mailParams.extend({
  index: z.coerce.number({ error: 'Not an attachment.' }).int().min(0).max(99, 'Not an attachment.'),
});

export function outboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/outbox', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getOutboxPageView(requireActor(request), Boolean(deps.config.mail.smtpUrl)),
    ),
  );

  r.get('/admin/outbox/search', { schema: { querystring: searchQuery } }, async (request) => {
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchOutbox(deps.db, requireActor(request), terms, { pageOffset, pageSize });
  });

  r.get('/admin/outbox/:mailId', { schema: { params: mailParams } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getOutboxMessageView(deps.db, requireActor(request), request.params.mailId),
    ),
  );

  r.get(
    '/admin/outbox/:mailId/attachments/:index',
    { schema: { params: attachmentParams, querystring: z.object({ attachment: z.string().optional() }) } },
    async (request, reply) => {
      const { mailId, index } = request.params;
      let opened: Awaited<ReturnType<typeof openOutboxAttachment>>;
      try {
        opened = await openOutboxAttachment(deps.db, deps.files, requireActor(request), mailId, index);
      } catch (error) {
        // Opened in a browser tab: a refusal is a page (Access Denied, Invalid URL), as for files.
        return sendRefusalPage(request, reply, deps.views, error);
      }
      return sendStoredFile(reply, opened, {
        inline: request.query.attachment === undefined,
        fileName: opened.name,
      });
    },
  );

  r.post('/admin/outbox/:mailId/actions/:action', { schema: { params: actionParams } }, async (request) => {
    const actor = requireActor(request);
    if (request.params.action !== 'resend') throw notFound('No such action.');
    return resendMail(deps.db, actor, request.params.mailId);
  });
}
