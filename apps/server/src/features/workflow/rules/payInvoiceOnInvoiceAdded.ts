import { findInvoiceState } from '../repository.js';
import { payloadString, type WorkflowRule } from '../rule.js';
import { addWorkflowTask } from '../tasks.js';

// Invoice added -> a payInvoice task for that invoice.

export const payInvoiceOnInvoiceAdded: WorkflowRule = {
  name: 'payInvoiceOnInvoiceAdded',
  on: ['request.invoiceAdded'],
  addsTasks: true,
  async handle({ trx, deps, event, request }) {
    const invoiceId = payloadString(event, 'invoiceId');
    if (!invoiceId) return;
    const invoice = await findInvoiceState(trx, invoiceId);
    if (!invoice || invoice.paid_at || invoice.discarded_at) return;
    await addWorkflowTask(trx, deps, {
      type: 'payInvoice',
      request,
      key: `payInvoice:invoice:${invoiceId}`,
      triggeredAt: event.createdAt,
      triggeredBy: event.actor,
    });
  },
};
