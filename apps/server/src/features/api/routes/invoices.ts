import { listRequestInvoices } from '../../invoices/list.js';
import { runRequestAction } from '../../requests/actions/run.js';
import { loadApiRequest } from '../access.js';
import { defineEndpoint } from '../endpoints.js';
import { addInvoiceBody, invoiceAdded, invoicesAnswer, requestNumberParams } from '../schemas.js';

// Invoices of a request: listed, and added through the request page's addInvoice action (same
// checks: the request must be open, tags and amounts valid, the file an upload of the key).

export const invoiceEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/requests/:requestNumber/invoices',
    scope: 'requestInvoiceRead',
    tag: 'Invoices',
    summary: 'List the invoices of a request',
    params: requestNumberParams,
    response: { description: 'The invoices.', schema: invoicesAnswer },
    async handler({ params }, { deps, actor }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      return { invoices: await listRequestInvoices(deps.db, actor, row) };
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/api/v1/requests/:requestNumber/invoices',
    scope: 'requestInvoiceWrite',
    tag: 'Invoices',
    summary: 'Upload an invoice for a request',
    description:
      'The file is the key of an upload made with POST /api/v1/files. Amounts are in minor units. ' +
      '409 when the request is closed.',
    params: requestNumberParams,
    body: addInvoiceBody,
    response: { status: 201, description: 'The invoice was added.', schema: invoiceAdded },
    async handler({ params, body }, { deps, actor }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      const answer = await runRequestAction(deps, actor, params.requestNumber, 'addInvoice', body);
      return answer;
    },
  }),
];
