import type { Payment } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// SQL of request_invoices and their payments (invoice_payments). Reads go through
// request_invoices_request_idx (request_number, created_at) or the primary key, payments through
// invoice_payments_invoice_idx. Payments run under the request's row lock (item actions), so the sum
// read before a payment is still the sum when it is recorded; settling is a conditional update
// (`... where paid_at is null`) besides. The invoice's amounts are written once, when it is added:
// they are what was billed, and no payment changes them.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function selectInvoices(db: DbOrTrx) {
  return db
    .selectFrom('request_invoices as i')
    .leftJoin('files as f', 'f.key', 'i.file_key')
    .leftJoin('files as ra', 'ra.key', 'i.remittance_advice_key')
    .leftJoin('users as cu', 'cu.id', 'i.created_by')
    .leftJoin('users as pu', 'pu.id', 'i.paid_by')
    .leftJoin('users as du', 'du.id', 'i.discarded_by')
    .selectAll('i')
    .select((eb) =>
      eb.fn
        .coalesce(
          eb
            .selectFrom('invoice_payments as p')
            .select((s) => s.fn.sum<string>('p.amount').as('s'))
            .whereRef('p.invoice_id', '=', 'i.id'),
          eb.lit(0),
        )
        .as('paid'),
    )
    .select((eb) =>
      eb
        .selectFrom('invoice_payments as p')
        .select((s) => s.fn.countAll<string>().as('n'))
        .whereRef('p.invoice_id', '=', 'i.id')
        .as('payment_count'),
    )
    .select([
      'f.name as file_name',
      'f.removed_at as file_removed_at',
      'ra.name as remittance_advice_name',
      'cu.name as created_by_name',
      'pu.name as paid_by_name',
      'du.name as discarded_by_name',
    ]);
}

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof findInvoice>>>;

export function listInvoices(db: DbOrTrx, requestNumber: string, limit = 500) {
  return selectInvoices(db)
    .where('i.request_number', '=', requestNumber)
    .orderBy('i.created_at', 'desc')
    .orderBy('i.id')
    .limit(limit)
    .execute();
}

export async function findInvoice(db: DbOrTrx, requestNumber: string, invoiceId: string) {
  if (!UUID.test(invoiceId)) return undefined;
  return selectInvoices(db)
    .where('i.request_number', '=', requestNumber)
    .where('i.id', '=', invoiceId)
    .executeTakeFirst();
}

export interface NewInvoice {
  requestNumber: string;
  fileKey: string;
  tags: Record<string, unknown>;
  notice: string | null;
  amount: number | null;
  amountExclusiveTax: number | null;
  tax: number | null;
  currency: string | null;
  foreignReference?: { url: string; label: string | null } | null;
  createdBy: string | null;
}

export async function insertInvoice(db: DbOrTrx, v: NewInvoice): Promise<string> {
  const row = await db
    .insertInto('request_invoices')
    .values({
      request_number: v.requestNumber,
      file_key: v.fileKey,
      tags: JSON.stringify(v.tags),
      notice: v.notice,
      amount: v.amount,
      amount_exclusive_tax: v.amountExclusiveTax,
      tax: v.tax,
      currency: v.currency,
      foreign_reference: v.foreignReference ? JSON.stringify(v.foreignReference) : null,
      created_at: new Date(),
      created_by: v.createdBy,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Records one payment of an invoice; answers its id. */
export async function insertPayment(
  db: DbOrTrx,
  invoiceId: string,
  actorId: string,
  payment: Payment,
  at = new Date(),
): Promise<string> {
  const row = await db
    .insertInto('invoice_payments')
    .values({
      invoice_id: invoiceId,
      paid_at: at,
      paid_by: actorId,
      payee_id: payment.payeeId ?? null,
      payee_name: payment.payeeName,
      payee_reference_number: payment.payeeReferenceNumber ?? null,
      payee_email: payment.payeeEmail ?? null,
      method: payment.method,
      amount_exclusive_tax: payment.amountExclusiveTax,
      tax: payment.tax,
      amount: payment.amount,
      currency: payment.currency,
      name_on_card: payment.nameOnCard ?? null,
      bank_account: payment.bankAccount ?? null,
      invoice_reference_number: payment.invoiceReferenceNumber ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Marks the invoice paid (its payments reached the amount) unless it already is or was discarded;
 * answers whether this call did it. Only the state changes: the amounts stay as billed.
 */
export async function markInvoicePaid(db: DbOrTrx, invoiceId: string, actorId: string, at = new Date()) {
  const row = await db
    .updateTable('request_invoices')
    .set({ paid_at: at, paid_by: actorId })
    .where('id', '=', invoiceId)
    .where('paid_at', 'is', null)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The payments of the invoices given, oldest first, with who paid and their remittance advice. */
export function listPayments(db: DbOrTrx, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('invoice_payments as p')
    .leftJoin('users as pu', 'pu.id', 'p.paid_by')
    .leftJoin('files as ra', 'ra.key', 'p.remittance_advice_key')
    .selectAll('p')
    .select(['pu.name as paid_by_name', 'ra.name as remittance_advice_name'])
    .where('p.invoice_id', 'in', [...invoiceIds])
    .orderBy('p.paid_at')
    .orderBy('p.id')
    .execute();
}

export type PaymentRow = Awaited<ReturnType<typeof listPayments>>[number];

/** One payment of the invoice: the one named, or the newest when none is. */
export async function findPayment(db: DbOrTrx, invoiceId: string, paymentId?: string) {
  if (paymentId !== undefined && !UUID.test(paymentId)) return undefined;
  let q = db.selectFrom('invoice_payments').selectAll().where('invoice_id', '=', invoiceId);
  if (paymentId !== undefined) q = q.where('id', '=', paymentId);
  return q.orderBy('paid_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/**
 * Records that the payment of a paid invoice was confirmed (by the paying system), unless it already
 * was or the invoice is not paid or was discarded; answers whether this call did it.
 */
export async function markPaymentConfirmed(db: DbOrTrx, invoiceId: string, at = new Date()) {
  const row = await db
    .updateTable('request_invoices')
    .set({ payment_confirmed_at: at })
    .where('id', '=', invoiceId)
    .where('paid_at', 'is not', null)
    .where('payment_confirmed_at', 'is', null)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function markInvoiceDiscarded(db: DbOrTrx, invoiceId: string, actorId: string, at = new Date()) {
  const row = await db
    .updateTable('request_invoices')
    .set({ discarded_at: at, discarded_by: actorId })
    .where('id', '=', invoiceId)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The newest advice of the payment; the invoice links the newest advice of any of its payments. */
export async function setRemittanceAdvice(
  db: DbOrTrx,
  invoiceId: string,
  paymentId: string,
  fileKey: string,
) {
  await db
    .updateTable('request_invoices')
    .set({ remittance_advice_key: fileKey })
    .where('id', '=', invoiceId)
    .execute();
  await db
    .updateTable('invoice_payments')
    .set({ remittance_advice_key: fileKey })
    .where('id', '=', paymentId)
    .where('invoice_id', '=', invoiceId)
    .execute();
}

/** A file the server made itself (the remittance advice PDF), owned by the request at once. */
export async function insertGeneratedRequestFile(
  db: DbOrTrx,
  file: {
    key: string;
    name: string;
    contentType: string;
    size: number;
    requestNumber: string;
    createdBy: string;
  },
) {
  const now = new Date();
  await db
    .insertInto('files')
    .values({
      key: file.key,
      name: file.name,
      content_type: file.contentType,
      declared_size: file.size,
      size: file.size,
      created_by: file.createdBy,
      created_at: now,
      uploaded_at: now,
      owner_type: 'request',
      owner_id: file.requestNumber,
      classification: 'remittanceAdvice',
    })
    .execute();
}
