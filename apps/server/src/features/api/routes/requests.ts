import { buildRequestSummary } from '../../requestPage/index.js';
import { createRequest } from '../../wizard/index.js';
import { loadApiRequest, logApiRead } from '../access.js';
import { readRequestRoute, submitRequestRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';

// Submitting a request and reading it: the same service as the wizard's POST /requests, so the same
// rules hold (the sender organisation must be a submitRequest scope within the key's scope, files
// must be uploads of the key).

export const requestEndpoints = [
  defineEndpoint({
    route: submitRequestRoute,
    scope: 'requestWrite',
    tag: 'Requests',
    summary: 'Submit a request',
    description:
      'Submits a request as the wizard does. Files (applicant.authority, item files, additionalFiles) ' +
      'are keys of uploads made with POST /api/v1/files. Answers 400 with a message per field.',
    status: 201,
    answers: 'The request was submitted.',
    async handler({ body }, { deps, actor, reply }) {
      const { requestNumber } = await createRequest(deps.db, deps, actor, body);
      reply.header('location', `/api/v1/requests/${requestNumber}`);
      return { requestNumber, status: 'submitted' as const };
    },
  }),
  defineEndpoint({
    route: readRequestRoute,
    scope: 'requestRead',
    tag: 'Requests',
    summary: 'Read a request and its status',
    answers: 'The request.',
    async handler({ params }, { deps, actor, reply }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      const summary = await buildRequestSummary(deps.db, row);
      logApiRead(deps, actor, reply, row.request_number);
      return summary;
    },
  }),
];
