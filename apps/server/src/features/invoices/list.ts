import { type InvoiceItem, type InvoicePaymentItem, invoiceBalance, type PaymentMethod } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { isRequestStaff } from '../requests/index.js';
import { type InvoiceRow, listInvoices, listPayments, type PaymentRow } from './repository.js';

// The Invoices list of the request page (and the item the invoice page shows). The caller has
// already checked that the actor may view the request. Invoices and their payments (bank details)
// are staff business: the sender side (submitters, external users) sees none of them.

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
const money = (v: string | number | null) => (v === null ? null : Number(v));

function toPaymentItem(p: PaymentRow): InvoicePaymentItem {
  return {
    paymentId: p.id,
    paidAt: p.paid_at.toISOString(),
    paidByDisplayName: p.paid_by_name ?? undefined,
    payeeId: p.payee_id,
    payeeName: p.payee_name,
    payeeReferenceNumber: p.payee_reference_number,
    payeeEmail: p.payee_email,
    method: p.method as PaymentMethod,
    amountExclusiveTax: Number(p.amount_exclusive_tax),
    tax: Number(p.tax),
    amount: Number(p.amount),
    currency: p.currency,
    nameOnCard: p.name_on_card,
    bankAccount: p.bank_account,
    invoiceReferenceNumber: p.invoice_reference_number,
    remittanceAdvice: p.remittance_advice_key
      ? { key: p.remittance_advice_key, name: p.remittance_advice_name ?? undefined }
      : undefined,
  };
}

/** The invoice as billed, with its payments (`payments`: this invoice's) and what is left to pay. */
export function toInvoiceItem(row: InvoiceRow, payments: readonly PaymentRow[]): InvoiceItem {
  const items = payments.map(toPaymentItem);
  const amount = money(row.amount);
  const { paid, balance } = invoiceBalance(amount, items);
  const foreign = row.foreign_reference;
  return {
    invoiceId: row.id,
    requestNumber: row.request_number,
    file: { key: row.file_key, name: row.file_name ?? undefined },
    ...(row.file_removed_at ? { fileRemovedAt: row.file_removed_at.toISOString() } : {}),
    tags: row.tags ?? {},
    createdAt: row.created_at.toISOString(),
    createdByDisplayName: row.created_by_name,
    paidAt: iso(row.paid_at),
    paidByDisplayName: row.paid_by_name ?? undefined,
    paymentConfirmedAt: iso(row.payment_confirmed_at),
    discardedAt: iso(row.discarded_at),
    discardedByDisplayName: row.discarded_by_name ?? undefined,
    remittanceAdvice: row.remittance_advice_key
      ? { key: row.remittance_advice_key, name: row.remittance_advice_name ?? undefined }
      : undefined,
    notice: row.notice,
    foreignReference: foreign?.url ? { url: foreign.url, label: foreign.label ?? foreign.url } : null,
    amount,
    amountExclusiveTax: money(row.amount_exclusive_tax),
    tax: money(row.tax),
    currency: row.currency,
    paid,
    balance,
    payments: items,
  };
}

export async function listRequestInvoices(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
): Promise<InvoiceItem[]> {
  if (!isRequestStaff(actor, request)) return [];
  const rows = await listInvoices(db, request.request_number);
  const byInvoice = new Map<string, PaymentRow[]>();
  for (const p of await listPayments(
    db,
    rows.map((r) => r.id),
  ))
    byInvoice.set(p.invoice_id, [...(byInvoice.get(p.invoice_id) ?? []), p]);
  return rows.map((row) => toInvoiceItem(row, byInvoice.get(row.id) ?? []));
}

/** One invoice as the invoice page and the API show it. */
export async function invoiceItem(db: DbOrTrx, row: InvoiceRow): Promise<InvoiceItem> {
  return toInvoiceItem(row, await listPayments(db, [row.id]));
}
