import {
  canLinkInboxMessageRoute,
  fieldErrorsOf,
  type InboxView,
  inboxMessageActionRoute,
  inboxMessagePageRoute,
  inboxPageRoute,
  inboxSearchRoute,
  linkInboxMessageBodySchema,
  unlinkInboxMessageBodySchema,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { AppDeps } from '../../http/deps.js';
import { fieldsInvalid, notFound } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { permissionFirst, requireActor } from '../auth/index.js';
import './files.js';
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

/** An action's body, checked by its own contract once the action is known. */
function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
}

export function inboxRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, inboxPageRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      requireInbox(requireActor(request));
      return { $type: 'inbox', title: 'Inbox' } satisfies InboxView;
    }),
  );

  serve(app, inboxSearchRoute, async ({ query }, request) => {
    const { pageOffset, pageSize, ...terms } = query;
    return searchInbox(deps.db, requireActor(request), terms, { pageOffset, pageSize });
  });

  serve(app, inboxMessagePageRoute, async ({ params, query }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getInboxMessageView(deps.db, requireActor(request), params.messageId, query.action),
    ),
  );

  serve(app, canLinkInboxMessageRoute, async ({ params }, request) =>
    canLinkMessage(deps.db, requireActor(request), params.messageId, params.requestNumber),
  );

  serve(
    app,
    inboxMessageActionRoute,
    async ({ params, body }, request) => {
      const actor = requireActor(request);
      const { messageId, action } = params;
      if (action === 'link')
        return linkMessage(deps, actor, messageId, parseBody(linkInboxMessageBodySchema, body));
      if (action === 'unlink')
        return unlinkMessage(
          deps,
          actor,
          messageId,
          parseBody(unlinkInboxMessageBodySchema, body).requestNumber,
        );
      throw notFound('No such action.');
    },
    { onRequest: permissionFirst('inbox') },
  );
}
