import {
  adminOutboxRoute,
  outboxActionRoute,
  outboxAttachmentRoute,
  outboxMessageRoute,
  searchOutboxRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { sendStoredFile } from '../../files/routes.js';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import { sendRefusalPage, sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import {
  getOutboxMessageView,
  getOutboxPageView,
  openOutboxAttachment,
  resendMail,
  searchOutbox,
} from './service.js';

// The admin outbox: the page, GET /admin/outbox/search, one message's page and its action
// POST /admin/outbox/{id}/actions/resend ("Send again").

export function outboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, adminOutboxRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getOutboxPageView(requireActor(request), Boolean(deps.config.mail.smtpUrl)),
    ),
  );

  serve(app, searchOutboxRoute, async ({ query }, request) => {
    const { pageOffset, pageSize, ...terms } = query;
    return searchOutbox(deps.db, requireActor(request), terms, { pageOffset, pageSize });
  });

  serve(app, outboxMessageRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getOutboxMessageView(deps.db, requireActor(request), params.mailId),
    ),
  );

  serve(app, outboxAttachmentRoute, async ({ params, query }, request, reply) => {
    const { mailId, index } = params;
    let opened: Awaited<ReturnType<typeof openOutboxAttachment>>;
    try {
      opened = await openOutboxAttachment(deps.db, deps.files, requireActor(request), mailId, index);
    } catch (error) {
      // Opened in a browser tab: a refusal is a page (Access Denied, Invalid URL), as for files.
      return sendRefusalPage(request, reply, deps.views, error);
    }
    return sendStoredFile(reply, opened, {
      inline: query.attachment === undefined,
      fileName: opened.name,
    });
  });

  serve(app, outboxActionRoute, async ({ params }, request) => {
    const actor = requireActor(request);
    if (params.action !== 'resend') throw notFound('No such action.');
    return resendMail(deps.db, actor, params.mailId);
  });
}
