import type { Payment } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';

// SQL of request_invoices. Reads go through request_invoices_request_idx (request_number,
// created_at) or the primary key. State changes are conditional updates (`... where paid_at is
// null`), so two people paying one invoice at once record exactly one payment.

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
    .select([
      'f.name as file_name',
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
  createdBy: string;
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

/** Records the payment unless the invoice is already paid or discarded; answers whether it did. */
export async function markInvoicePaid(
  db: DbOrTrx,
  invoiceId: string,
  actorId: string,
  payment: Payment,
  at = new Date(),
): Promise<boolean> {
  const row = await db
    .updateTable('request_invoices')
    .set({
      paid_at: at,
      paid_by: actorId,
      payment: JSON.stringify(payment),
      amount: payment.amount,
      amount_exclusive_tax: payment.amountExclusiveTax,
      tax: payment.tax,
      currency: payment.currency,
    })
    .where('id', '=', invoiceId)
    .where('paid_at', 'is', null)
    .where('discarded_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
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

export async function setRemittanceAdvice(db: DbOrTrx, invoiceId: string, fileKey: string) {
  await db
    .updateTable('request_invoices')
    .set({ remittance_advice_key: fileKey })
    .where('id', '=', invoiceId)
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
