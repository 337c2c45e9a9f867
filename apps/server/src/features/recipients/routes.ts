import {
  type AdminRecipientsView,
  adminRecipientsRoute,
  createRecipientRoute,
  newRecipientRoute,
  recipientRoute,
  searchRecipientsRoute,
  updateRecipientRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import {
  assertMayEditRecipient,
  createRecipient,
  getRecipientView,
  searchRecipients,
  updateRecipient,
} from './service.js';

export function recipientRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, adminRecipientsRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () => {
      const actor = requirePermission(request, 'recipient:view');
      return {
        $type: 'adminRecipients',
        title: 'Recipients',
        canCreateNew: actor.permissions.includes('recipient:edit'),
      } satisfies AdminRecipientsView;
    }),
  );

  serve(app, searchRecipientsRoute, async ({ query }, request) => {
    requirePermission(request, 'recipient:view');
    const { pageOffset, pageSize, ...terms } = query;
    return searchRecipients(deps.db, terms, { pageOffset, pageSize });
  });

  serve(app, newRecipientRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getRecipientView(deps.db, requirePermission(request, 'recipient:edit'), undefined),
    ),
  );

  serve(app, recipientRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getRecipientView(deps.db, requirePermission(request, 'recipient:view'), params.recipientId),
    ),
  );

  serve(
    app,
    createRecipientRoute,
    async ({ body }, request) =>
      createRecipient(deps.db, deps.files, requirePermission(request, 'recipient:edit'), body),
    { onRequest: permissionFirst('recipient:edit') },
  );

  // The body's rules are checked when it is validated: whose recipient it is, before that.
  serve(
    app,
    updateRecipientRoute,
    async ({ params, body }, request) =>
      updateRecipient(
        deps.db,
        deps.files,
        requirePermission(request, 'recipient:edit'),
        params.recipientId,
        body,
      ),
    {
      onRequest: async (request: FastifyRequest) => {
        const actor = requirePermission(request, 'recipient:edit');
        const params = updateRecipientRoute.params?.safeParse(request.params);
        // A malformed id is answered by the params' validation (400).
        if (params?.success) await assertMayEditRecipient(deps.db, actor, params.data.recipientId);
      },
    },
  );
}
