import { openFile } from '../../../files/service.js';
import { notFound } from '../../../http/errors.js';
import { runRequestAction } from '../../requestPage/index.js';
import { findResult, listRequestResults } from '../../results/index.js';
import { loadApiRequest, logApiRead, sendDownload } from '../access.js';
import { addResultRoute, listResultsRoute, resultFileRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';

// Results of a request: listed, downloaded, and added through the request page's addResult action
// (same checks: the request must be open, the file an upload of the key).

export const resultEndpoints = [
  defineEndpoint({
    route: listResultsRoute,
    scope: 'requestResultRead',
    tag: 'Results',
    summary: 'List the results of a request',
    description:
      'Newest first. A key of the sender side (no result-write, invoice-write or invoice-read scope) sees a result once it is delivered: quality assured (or QA skipped) and not discarded. A staff key sees every result with its state.',
    answers: 'The results.',
    async handler({ params }, { deps, actor, reply }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      const results = await listRequestResults(deps.db, actor, row);
      logApiRead(deps, actor, reply, row.request_number);
      return { results };
    },
  }),
  defineEndpoint({
    route: resultFileRoute,
    scope: 'requestResultRead',
    tag: 'Results',
    summary: 'Download the file of a result',
    answers: 'The file.',
    download: true,
    async handler({ params }, { deps, actor, reply }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      const result = await findResult(deps.db, params.requestNumber, params.resultId);
      if (!result || result.discarded_at) throw notFound('No such result.');
      return sendDownload(
        reply,
        await openFile(deps.files, actor, result.file_key, { address: reply.request.ip }),
      );
    },
  }),
  defineEndpoint({
    route: addResultRoute,
    scope: 'requestResultWrite',
    tag: 'Results',
    summary: 'Add a result to a request',
    description:
      'The file is the key of an upload made with POST /api/v1/files. 409 when the request is closed.',
    status: 201,
    answers: 'The result was added.',
    async handler({ params, body }, { deps, actor }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      // The request page's actions answer an untyped outcome (http/actions.ts); this one's is the id.
      return addResultRoute.answer.parse(
        await runRequestAction(deps, actor, params.requestNumber, 'addResult', body),
      );
    },
  }),
];
