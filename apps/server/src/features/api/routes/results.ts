import { openFile } from '../../../files/service.js';
import { notFound } from '../../../http/errors.js';
import { runRequestAction } from '../../requestPage/index.js';
import { findResult, listRequestResults } from '../../results/index.js';
import { loadApiRequest, sendDownload } from '../access.js';
import { defineEndpoint } from '../endpoints.js';
import { addResultBody, requestNumberParams, resultAdded, resultParams, resultsAnswer } from '../schemas.js';

// Results of a request: listed, downloaded, and added through the request page's addResult action
// (same checks: the request must be open, the file an upload of the key).

export const resultEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/requests/:requestNumber/results',
    scope: 'requestResultRead',
    tag: 'Results',
    summary: 'List the results of a request',
    description:
      'Newest first. A key of the sender side (no result-write, invoice-write or invoice-read scope) sees a result once it is delivered: quality assured (or QA skipped) and not discarded. A staff key sees every result with its state.',
    params: requestNumberParams,
    response: { description: 'The results.', schema: resultsAnswer },
    async handler({ params }, { deps, actor }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      return { results: await listRequestResults(deps.db, actor, row) };
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/requests/:requestNumber/results/:resultId/file',
    scope: 'requestResultRead',
    tag: 'Results',
    summary: 'Download the file of a result',
    params: resultParams,
    response: { description: 'The file.', binary: true },
    async handler({ params }, { deps, actor, reply }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      const result = await findResult(deps.db, params.requestNumber, params.resultId);
      if (!result || result.discarded_at) throw notFound('No such result.');
      return sendDownload(reply, await openFile(deps.files, actor, result.file_key));
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/api/v1/requests/:requestNumber/results',
    scope: 'requestResultWrite',
    tag: 'Results',
    summary: 'Add a result to a request',
    description:
      'The file is the key of an upload made with POST /api/v1/files. 409 when the request is closed.',
    params: requestNumberParams,
    body: addResultBody,
    response: { status: 201, description: 'The result was added.', schema: resultAdded },
    async handler({ params, body }, { deps, actor }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      const answer = await runRequestAction(deps, actor, params.requestNumber, 'addResult', body);
      return answer;
    },
  }),
];
