import {
  applicantSearchRoute,
  createRequestRoute,
  discardDraftRoute,
  draftPageRoute,
  newRequestPageRoute,
  recipientSearchRoute,
  requestReceiptRoute,
  saveDraftRoute,
  senderDataRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { forbidden } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { hasPermission, requirePermission } from '../auth/index.js';
import { searchApplicants, searchRecipientSnapshots } from './applicantSearch.js';
import { createRequest } from './createRequest.js';
import { getSenderData } from './senderData.js';
import { discardDraft, getDraftView, getNewRequestView, getReceiptView, saveDraft } from './service.js';

/** Refuses a caller who may not submit before its body is even validated. */
async function submittersOnly(request: FastifyRequest): Promise<void> {
  requirePermission(request, 'request:submit');
}

export function wizardRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, newRequestPageRoute, async (_input, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getNewRequestView(deps.db, requirePermission(request, 'request:submit')),
    ),
  );

  serve(app, draftPageRoute, async ({ params, query }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getDraftView(deps.db, requirePermission(request, 'request:submit'), params.draftId, query.step),
    ),
  );

  serve(
    app,
    saveDraftRoute,
    async ({ params, body }, request) =>
      saveDraft(deps.db, requirePermission(request, 'request:submit'), params.draftId, body),
    { onRequest: submittersOnly },
  );

  serve(app, discardDraftRoute, async ({ params }, request) =>
    discardDraft(deps.db, requirePermission(request, 'request:submit'), params.draftId),
  );

  serve(app, senderDataRoute, async ({ params }, request) =>
    getSenderData(deps.db, requirePermission(request, 'request:submit'), params.organization),
  );

  serve(app, applicantSearchRoute, async ({ params, query }, request) =>
    searchApplicants(deps.db, requirePermission(request, 'request:submit'), params.organization, query),
  );

  // The directory search for the wizard and for choosing a request's recipient: submitters may
  // search too (the admin pages keep their own route and permission).
  serve(app, recipientSearchRoute, async ({ query }, request) => {
    const actor = requirePermission(request, 'request:view');
    if (!hasPermission(actor, 'request:submit') && !hasPermission(actor, 'recipient:view')) throw forbidden();
    const { pageOffset, pageSize, ...terms } = query;
    return searchRecipientSnapshots(deps.db, terms, { pageOffset, pageSize });
  });

  serve(
    app,
    createRequestRoute,
    async ({ body }, request) =>
      createRequest(deps.db, deps, requirePermission(request, 'request:submit'), body),
    { onRequest: submittersOnly },
  );

  serve(app, requestReceiptRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getReceiptView(deps.db, requirePermission(request, 'request:view'), params.requestNumber),
    ),
  );
}
