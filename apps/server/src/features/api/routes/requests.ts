import type { z } from 'zod';
import { buildRequestSummary } from '../../requestPage/index.js';
import { createRequest, createRequestBodySchema } from '../../wizard/index.js';
import { loadApiRequest } from '../access.js';
import { defineEndpoint } from '../endpoints.js';
import { requestNumberParams, requestSummaryAnswer, submitAnswer } from '../schemas.js';

// Submitting a request and reading it: the same service as the wizard's POST /requests, so the same
// rules hold (the sender organisation must be a submitRequest scope within the key's scope, files
// must be uploads of the key).

const submitBody = createRequestBodySchema.omit({ draftId: true });

export const requestEndpoints = [
  defineEndpoint({
    method: 'POST',
    path: '/api/v1/requests',
    scope: 'requestWrite',
    tag: 'Requests',
    summary: 'Submit a request',
    description:
      'Submits a request as the wizard does. Files (applicant.authority, item files, additionalFiles) ' +
      'are keys of uploads made with POST /api/v1/files. Answers 400 with a message per field.',
    body: submitBody,
    response: { status: 201, description: 'The request was submitted.', schema: submitAnswer },
    async handler({ body }, { deps, actor, reply }) {
      const { requestNumber } = await createRequest(deps.db, deps, actor, body);
      reply.header('location', `/api/v1/requests/${requestNumber}`);
      return { requestNumber, status: 'submitted' as const };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/requests/:requestNumber',
    scope: 'requestRead',
    tag: 'Requests',
    summary: 'Read a request and its status',
    params: requestNumberParams,
    response: { description: 'The request.', schema: requestSummaryAnswer },
    async handler({ params }, { deps, actor }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      return buildRequestSummary(deps.db, row);
    },
  }),
];

export type SubmitBody = z.infer<typeof submitBody>;
