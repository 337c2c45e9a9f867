import { payloadString, type WorkflowRule } from '../rule.js';
import { completeOpenTasks } from '../tasks.js';

// Invoice paid (or discarded: nothing left to pay) -> its payInvoice task is complete.

export const completePayInvoiceOnInvoiceDone: WorkflowRule = {
  name: 'completePayInvoiceOnInvoiceDone',
  on: ['request.invoicePaid', 'request.invoiceDiscarded'],
  addsTasks: false,
  async handle({ trx, deps, event, request }) {
    const invoiceId = payloadString(event, 'invoiceId');
    if (!invoiceId) return;
    await completeOpenTasks(
      trx,
      deps,
      request.request_number,
      { workflowKey: `payInvoice:invoice:${invoiceId}` },
      event.actor,
      event.createdAt,
    );
  },
};
