import { notFound } from '../../../http/errors.js';
import {
  CONFIRM_PAYMENT,
  findInvoice,
  invoiceItem,
  listRequestInvoices,
  paymentConfirmationActions,
} from '../../invoices/index.js';
import { runRequestAction } from '../../requestPage/index.js';
import { runItemAction } from '../../results/index.js';
import { loadApiRequest } from '../access.js';
import { defineEndpoint } from '../endpoints.js';
import {
  addInvoiceBody,
  invoiceAdded,
  invoiceAnswer,
  invoiceParams,
  invoicesAnswer,
  requestNumberParams,
} from '../schemas.js';

// Invoices of a request: listed, added through the request page's addInvoice action (same checks:
// the request must be open, tags and amounts valid, the file an upload of the key), and the
// payment confirmed by the system that paid it.

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
  defineEndpoint({
    method: 'POST',
    path: '/api/v1/requests/:requestNumber/invoices/:invoiceId/payment-confirmation',
    scope: 'requestInvoiceWrite',
    tag: 'Invoices',
    summary: 'Confirm the payment of a paid invoice',
    description:
      'For the system that made the payment: the invoice becomes "paid and confirmed". 409 when the ' +
      'invoice is not paid, already confirmed or discarded.',
    params: invoiceParams,
    response: { description: 'The invoice, confirmed.', schema: invoiceAnswer },
    async handler({ params }, { deps, actor }) {
      const request = await loadApiRequest(deps.db, actor, params.requestNumber);
      await runItemAction(deps, actor, {
        requestNumber: request.request_number,
        itemId: params.invoiceId,
        name: CONFIRM_PAYMENT,
        body: {},
        registry: paymentConfirmationActions,
        load: findInvoice,
      });
      const row = await findInvoice(deps.db, request.request_number, params.invoiceId);
      if (!row) throw notFound('No such invoice.');
      return invoiceItem(deps.db, row);
    },
  }),
];
