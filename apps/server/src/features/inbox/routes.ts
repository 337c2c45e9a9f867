import { ATTACHMENT_CLASSIFICATIONS, fieldErrorsOf, type InboxView, pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { fieldsInvalid, notFound } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { permissionFirst, requireActor } from '../auth/index.js';
import './files.js';
import { dateQuery, optional } from '../../http/query.js';
import {
  canLinkMessage,
  getInboxMessageView,
  linkMessage,
  requireInbox,
  searchInbox,
  unlinkMessage,
} from './service.js';

// Routes of the inbox: the search page and GET /inbox/search, one message's page, canLink,
// and POST /inbox/messages/{id}/actions/{link|unlink}.

const searchQuery = pagingQuerySchema.extend({
  // Paging stops where counting stops.
  pageOffset: z.coerce.number().int().min(0).max(10_000).default(0),
  sender: optional(z.string().max(200)),
  content: optional(z.string().max(200)),
  receivedAtFrom: optional(dateQuery),
  receivedAtTo: optional(dateQuery),
});

const messageParams = z.object({ messageId: z.string().max(100) });
const canLinkParams = messageParams.extend({ requestNumber: z.string().max(40) });
const actionParams = messageParams.extend({ action: z.string().max(40) });

const tags = z.record(z.string().max(100), z.string().max(200));
const linkBody = z.object({
  requestNumber: z.string({ error: 'This field is required.' }).trim().toUpperCase().max(40),
  attachments: z
    .array(
      z.object({
        classification: z.enum(ATTACHMENT_CLASSIFICATIONS, { error: 'Choose a classification.' }),
        resultTags: tags.optional(),
        invoiceTags: tags.optional(),
      }),
    )
    .max(100)
    .default([]),
});
const unlinkBody = z.object({ requestNumber: z.string({ error: 'This field is required.' }).trim().max(40) });

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
}

export function inboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/inbox', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      requireInbox(requireActor(request));
      return { $type: 'inbox', title: 'Inbox' } satisfies InboxView;
    }),
  );

  r.get('/inbox/search', { schema: { querystring: searchQuery } }, async (request) => {
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchInbox(deps.db, requireActor(request), terms, { pageOffset, pageSize });
  });

  r.get(
    '/inbox/messages/:messageId',
    { schema: { params: messageParams, querystring: z.object({ action: z.string().max(40).optional() }) } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getInboxMessageView(deps.db, requireActor(request), request.params.messageId, request.query.action),
      ),
  );

  r.get(
    '/inbox/messages/:messageId/actions/link/:requestNumber',
    { schema: { params: canLinkParams } },
    async (request) =>
      canLinkMessage(deps.db, requireActor(request), request.params.messageId, request.params.requestNumber),
  );

  r.post(
    '/inbox/messages/:messageId/actions/:action',
    { onRequest: permissionFirst('inbox'), schema: { params: actionParams } },
    async (request) => {
      const actor = requireActor(request);
      const { messageId, action } = request.params;
      if (action === 'link') return linkMessage(deps, actor, messageId, parseBody(linkBody, request.body));
      if (action === 'unlink')
        return unlinkMessage(deps, actor, messageId, parseBody(unlinkBody, request.body).requestNumber);
      throw notFound('No such action.');
    },
  );
}
