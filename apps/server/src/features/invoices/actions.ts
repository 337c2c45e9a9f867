import {
  AMOUNT_SUM_WRONG,
  amountsAddUp,
  CURRENCIES,
  emailSchema,
  formatMinorUnits,
  isCurrency,
  isValidEmail,
  PAYMENT_METHODS,
  PAYMENT_NOT_POSITIVE,
  type Payment,
  paymentAmountError,
  paymentSettles,
} from '@dossier/core';
import { z } from 'zod';
import { recordEvent } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';
import { actionRegistry } from '../../http/actions.js';
import { conflict, fieldsInvalid } from '../../http/errors.js';
import { findPayee } from '../payees/index.js';
import { canHandleRequest, touchRequest } from '../requests/index.js';
import type { ItemAction, ItemActionContext, ItemActions } from '../results/index.js';
import { publishRequestWebhook } from '../webhooks/index.js';
import { sendRemittanceAdvice } from './remittance.js';
import { type InvoiceRow, insertPayment, markInvoiceDiscarded, markInvoicePaid } from './repository.js';

// The actions of the invoice page (Invoice page): pay (reached through a payee search),
// sendRemittanceAdvice and discard.

type Ctx = ItemActionContext<InvoiceRow>;
const define = <Input>(action: ItemAction<InvoiceRow, Input>) => action;

const required = (label: string) => ({ error: `${label} is required.` });
const optional = (max: number) => z.string().trim().max(max).nullish();
const minor = (label: string) =>
  z
    .number(required(label))
    .int('Enter at most two decimals.')
    .min(0, `${label} cannot be negative.`)
    .max(1e13);

const payBody = z.object({
  payeeId: z.string().max(20).nullish(),
  payeeName: z.string(required('Payee name')).trim().min(1, 'Payee name is required.').max(300),
  payeeReferenceNumber: optional(100),
  payeeEmail: optional(254),
  method: z.enum(PAYMENT_METHODS, { error: 'Choose a payment method.' }),
  amountExclusiveTax: minor('Amount excl. tax'),
  tax: minor('Tax'),
  // Checked here rather than as "cannot be negative": a payment of nothing is no payment.
  amount: z
    .number(required('Amount'))
    .int('Enter at most two decimals.')
    .min(1, PAYMENT_NOT_POSITIVE)
    .max(1e13),
  currency: z.string(required('Currency')).min(1, 'Currency is required.').max(3),
  nameOnCard: optional(200),
  bankAccount: optional(100),
  invoiceReferenceNumber: optional(100),
});
type PayBody = z.infer<typeof payBody>;

/**
 * The rules across fields (validation rules, pay invoice), and against the invoice: a
 * payment is positive, in the invoice's currency and at most its balance (issue 23).
 */
function paymentErrors(input: PayBody, invoice: InvoiceRow): Record<string, string> {
  const errors: Record<string, string> = {};
  const againstInvoice = paymentAmountError(
    { amount: toNumber(invoice.amount), currency: invoice.currency },
    Number(invoice.paid),
    input,
  );
  // Another currency than the invoice's is a reason about Currency, and stands there.
  const otherCurrency = invoice.currency !== null && input.currency !== invoice.currency;
  if (!amountsAddUp(input)) errors.amount = AMOUNT_SUM_WRONG;
  else if (againstInvoice) errors[otherCurrency && input.amount > 0 ? 'currency' : 'amount'] = againstInvoice;
  if (!isCurrency(input.currency, CURRENCIES)) errors.currency = 'Choose one of the currencies offered.';
  if (input.method === 'creditCard' && !input.nameOnCard) errors.nameOnCard = 'Name on card is required.';
  if (input.method === 'bankTransfer' && !input.bankAccount) errors.bankAccount = 'Bank account is required.';
  if (input.payeeEmail && !isValidEmail(input.payeeEmail)) errors.payeeEmail = 'Enter a valid email address.';
  return errors;
}

/** A payment linked to a payee record takes the payee's own details, whatever the form held. */
async function linkPayee(trx: DbOrTrx, input: PayBody): Promise<Payment> {
  const bankAccount = input.method === 'bankTransfer' ? (input.bankAccount ?? null) : null;
  const payment: Payment = {
    payeeId: null,
    payeeName: input.payeeName,
    payeeReferenceNumber: input.payeeReferenceNumber || null,
    payeeEmail: input.payeeEmail || null,
    method: input.method,
    amountExclusiveTax: input.amountExclusiveTax,
    tax: input.tax,
    amount: input.amount,
    currency: input.currency,
    nameOnCard: input.method === 'creditCard' ? (input.nameOnCard ?? null) : null,
    bankAccount,
    invoiceReferenceNumber: input.invoiceReferenceNumber || null,
  };
  if (!input.payeeId) return payment;
  const payee = await findPayee(trx, input.payeeId);
  if (!payee || payee.data.disabled)
    throw fieldsInvalid({ payeeId: 'The payee does not exist or is disabled.' });
  return {
    ...payment,
    payeeId: payee.id,
    payeeName: payee.data.name,
    payeeReferenceNumber: payee.data.referenceNumber,
    payeeEmail: payee.data.email,
    bankAccount: input.method === 'bankTransfer' ? (payee.data.bankAccount ?? bankAccount) : bankAccount,
  };
}

const toNumber = (v: string | number | null) => (v === null ? null : Number(v));

const handlerOnly = (ctx: Ctx) => canHandleRequest(ctx.actor, ctx.request);

const pay = define({
  name: 'pay',
  body: payBody,
  offer(ctx: Ctx) {
    if (!handlerOnly(ctx)) return 'forbidden';
    if (ctx.item.discarded_at) return { conflict: 'The invoice was discarded.' };
    if (ctx.item.paid_at) return { conflict: 'The invoice is already paid.' };
    return 'offered';
  },
  async run(trx, { deps, actor, request, item }: Ctx, input) {
    const errors = paymentErrors(input, item);
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const payment = await linkPayee(trx, input);
    // The row lock on the request serialises payments, so `item.paid` is still the sum of the
    // payments; the invoice's own amounts are left as billed.
    const paymentId = await insertPayment(trx, item.id, actor.id, payment);
    const paid = Number(item.paid) + payment.amount;
    const settles = paymentSettles(toNumber(item.amount), Number(item.paid), payment.amount);
    if (settles && !(await markInvoicePaid(trx, item.id, actor.id)))
      throw conflict('The invoice is already paid.');
    const n = request.request_number;
    const money = `${payment.currency} ${formatMinorUnits(payment.amount)}`;
    // Only the payment that settles the invoice is "invoicePaid" (which completes its Pay Invoice
    // task); a part payment leaves the task open.
    await recordEvent(trx, {
      type: settles ? 'request.invoicePaid' : 'request.invoicePartPaid',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: settles
          ? `Paid an invoice: ${money} to ${payment.payeeName}.`
          : `Paid part of an invoice: ${money} to ${payment.payeeName}.`,
        invoiceId: item.id,
        paymentId,
        // How the payer's session was authenticated (issue 35): the history shows it with the payment.
        ...(actor.authMethod ? { authenticatedBy: actor.authMethod } : {}),
      },
    });
    await touchRequest(trx, n, actor.id);
    // The paying system hears once, when the invoice is paid: `amount` is what was paid in all.
    if (settles)
      await publishRequestWebhook(trx, deps, request, 'invoicePaid', {
        requestNumber: n,
        invoiceId: item.id,
        paymentId,
        amount: paid,
        currency: payment.currency,
        payeeId: payment.payeeId,
      });
  },
});

const sendRemittanceAdviceAction = define({
  name: 'sendRemittanceAdvice',
  body: z.object({
    email: emailSchema,
    // The advice is for one payment: this one, or the newest.
    paymentId: z.string().max(40).nullish(),
  }),
  offer(ctx: Ctx) {
    if (!handlerOnly(ctx)) return 'forbidden';
    if (ctx.item.discarded_at) return { conflict: 'The invoice was discarded.' };
    // Each payment, a part payment too, has its advice.
    if (Number(ctx.item.payment_count ?? 0) === 0) return { conflict: 'The invoice is not paid yet.' };
    return 'offered';
  },
  async run(trx, ctx: Ctx, input) {
    await sendRemittanceAdvice(trx, ctx, input.email, input.paymentId ?? undefined);
  },
});

const discard = define({
  name: 'discard',
  body: z.object({}).passthrough(),
  offer(ctx: Ctx) {
    if (!handlerOnly(ctx)) return 'forbidden';
    if (ctx.item.discarded_at) return { conflict: 'The invoice was already discarded.' };
    return 'offered';
  },
  async run(trx, { actor, request, item }: Ctx) {
    if (!(await markInvoiceDiscarded(trx, item.id, actor.id)))
      throw conflict('The invoice was already discarded.');
    const n = request.request_number;
    await recordEvent(trx, {
      type: 'request.invoiceDiscarded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: { summary: 'Discarded an invoice.', invoiceId: item.id },
    });
    await touchRequest(trx, n, actor.id);
  },
});

export const invoiceActions: ItemActions<InvoiceRow> = actionRegistry([
  pay,
  sendRemittanceAdviceAction,
  discard,
]);
