import { z } from 'zod';
import { recordEvent } from '../../audit/events.js';
import { actionRegistry } from '../../http/actions.js';
import { conflict } from '../../http/errors.js';
import { canHandleRequest, touchRequest } from '../requests/index.js';
import type { ItemActionContext, ItemActions } from '../results/index.js';
import { type InvoiceRow, markPaymentConfirmed } from './repository.js';

// "Paid and confirmed" (invoice states): the system that made the payment confirms it
// through the public API once the money has gone out. It is not an action of the invoice page (a
// person in Dossier cannot know the bank executed the payment), so it has a registry of its own,
// run like the page's actions: the request row locked, the state checked on commit (409).

type Ctx = ItemActionContext<InvoiceRow>;

export const CONFIRM_PAYMENT = 'confirmPayment';

export const paymentConfirmationActions: ItemActions<InvoiceRow> = actionRegistry([
  {
    name: CONFIRM_PAYMENT,
    body: z.object({}).passthrough(),
    offer({ actor, request, item }: Ctx) {
      if (!canHandleRequest(actor, request)) return 'forbidden';
      if (item.discarded_at) return { conflict: 'The invoice was discarded.' };
      if (!item.paid_at) return { conflict: 'The invoice is not paid yet.' };
      if (item.payment_confirmed_at) return { conflict: 'The payment is already confirmed.' };
      return 'offered';
    },
    async run(trx, { actor, request, item }: Ctx) {
      if (!(await markPaymentConfirmed(trx, item.id))) throw conflict('The payment is already confirmed.');
      const n = request.request_number;
      await recordEvent(trx, {
        type: 'request.invoicePaymentConfirmed',
        aggregateType: 'request',
        aggregateId: n,
        actor: actor.id,
        payload: {
          summary: 'The payment of an invoice was confirmed.',
          invoiceId: item.id,
          ...(actor.authMethod ? { authenticatedBy: actor.authMethod } : {}),
        },
      });
      await touchRequest(trx, n, actor.id);
    },
  },
]);
