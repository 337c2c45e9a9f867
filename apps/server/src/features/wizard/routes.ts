import { draftDataSchema, LAST_STEP, pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { forbidden } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { hasPermission, requirePermission } from '../auth/index.js';
import { searchApplicants, searchRecipientSnapshots } from './applicantSearch.js';
import { createRequest, createRequestBodySchema } from './createRequest.js';
import { getSenderData } from './senderData.js';
import { discardDraft, getDraftView, getNewRequestView, getReceiptView, saveDraft } from './service.js';

const draftParams = z.object({ draftId: z.uuid() });
const organizationParams = z.object({ organization: z.string().min(1).max(300) });
const applicantQuery = z.object({
  name: z.string().max(300).optional(),
  dateOfBirth: z.iso
    .date()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  reference: z.string().max(100).optional(),
});
const recipientQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  phone: z.string().max(40).optional(),
  address: z.string().max(200).optional(),
  email: z.string().max(254).optional(),
});
const draftBody = z.object({
  completedStep: z.number().int().min(0).max(LAST_STEP).default(0),
  data: draftDataSchema,
});

/** Refuses a caller who may not submit before its body is even validated. */
async function submittersOnly(request: FastifyRequest): Promise<void> {
  requirePermission(request, 'request:submit');
}

export function wizardRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/requests/new', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getNewRequestView(deps.db, requirePermission(request, 'request:submit')),
    ),
  );

  r.get(
    '/requests/new/:draftId',
    { schema: { params: draftParams, querystring: z.object({ step: z.string().max(20).optional() }) } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getDraftView(
          deps.db,
          requirePermission(request, 'request:submit'),
          request.params.draftId,
          request.query.step,
        ),
      ),
  );

  r.put(
    '/drafts/:draftId',
    { onRequest: submittersOnly, schema: { params: draftParams, body: draftBody } },
    async (request) =>
      saveDraft(deps.db, requirePermission(request, 'request:submit'), request.params.draftId, request.body),
  );

  r.delete('/drafts/:draftId', { schema: { params: draftParams } }, async (request) =>
    discardDraft(deps.db, requirePermission(request, 'request:submit'), request.params.draftId),
  );

  r.get(
    '/requests/new/sender/:organization/data',
    { schema: { params: organizationParams } },
    async (request) =>
      getSenderData(deps.db, requirePermission(request, 'request:submit'), request.params.organization),
  );

  r.get(
    '/applicants/:organization/search',
    { schema: { params: organizationParams, querystring: applicantQuery } },
    async (request) =>
      searchApplicants(
        deps.db,
        requirePermission(request, 'request:submit'),
        request.params.organization,
        request.query,
      ),
  );

  // The directory search for the wizard and for choosing a request's recipient: submitters may
  // search too (the admin pages keep their own route and permission).
  r.get('/recipients/search', { schema: { querystring: recipientQuery } }, async (request) => {
    const actor = requirePermission(request, 'request:view');
    if (!hasPermission(actor, 'request:submit') && !hasPermission(actor, 'recipient:view')) throw forbidden();
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchRecipientSnapshots(deps.db, terms, { pageOffset, pageSize });
  });

  r.post(
    '/requests',
    { onRequest: submittersOnly, schema: { body: createRequestBodySchema } },
    async (request) =>
      createRequest(deps.db, deps, requirePermission(request, 'request:submit'), request.body),
  );

  r.get(
    '/requests/:requestNumber/receipt',
    { schema: { params: z.object({ requestNumber: z.string().max(40) }) } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getReceiptView(deps.db, requirePermission(request, 'request:view'), request.params.requestNumber),
      ),
  );
}
