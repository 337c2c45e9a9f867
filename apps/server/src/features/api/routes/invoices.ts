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
import { addInvoiceRoute, confirmPaymentRoute, listInvoicesRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';

// Invoices of a request: listed, added through the request page's addInvoice action (same checks:
// the request must be open, tags and amounts valid, the file an upload of the key), and the
// payment confirmed by the system that paid it.

export const invoiceEndpoints = [
  defineEndpoint({
    route: listInvoicesRoute,
    scope: 'requestInvoiceRead',
    tag: 'Invoices',
    summary: 'List the invoices of a request',
    answers: 'The invoices.',
    async handler({ params }, { deps, actor }) {
      const row = await loadApiRequest(deps.db, actor, params.requestNumber);
      return { invoices: await listRequestInvoices(deps.db, actor, row) };
    },
  }),
  defineEndpoint({
    route: addInvoiceRoute,
    scope: 'requestInvoiceWrite',
    tag: 'Invoices',
    summary: 'Upload an invoice for a request',
    description:
      'The file is the key of an upload made with POST /api/v1/files. Amounts are in minor units. ' +
      '409 when the request is closed.',
    status: 201,
    answers: 'The invoice was added.',
    async handler({ params, body }, { deps, actor }) {
      await loadApiRequest(deps.db, actor, params.requestNumber);
      // The request page's actions answer an untyped outcome (http/actions.ts); this one's is the id.
      return addInvoiceRoute.answer.parse(
        await runRequestAction(deps, actor, params.requestNumber, 'addInvoice', body),
      );
    },
  }),
  defineEndpoint({
    route: confirmPaymentRoute,
    scope: 'requestInvoiceWrite',
    tag: 'Invoices',
    summary: 'Confirm the payment of a paid invoice',
    description:
      'For the system that made the payment: the invoice becomes "paid and confirmed". 409 when the ' +
      'invoice is not paid, already confirmed or discarded.',
    answers: 'The invoice, confirmed.',
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
