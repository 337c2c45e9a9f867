import type { InvoiceItem, Payment } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import type { Actor } from '../auth/actor.js';
import { isRequestStaff } from '../requests/policy.js';
import type { RequestRow } from '../requests/repository.js';
import { type InvoiceRow, listInvoices } from './repository.js';

// The Invoices list of the request page (and the item the invoice page shows). The caller has
// already checked that the actor may view the request. Invoices and their payments (bank details)
// are staff business: the sender side (submitters, external users) sees none of them.

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
const money = (v: string | number | null) => (v === null ? null : Number(v));

export function toInvoiceItem(row: InvoiceRow): InvoiceItem {
  const foreign = row.foreign_reference as { url?: string; label?: string } | null;
  return {
    invoiceId: row.id,
    requestNumber: row.request_number,
    file: { key: row.file_key, name: row.file_name ?? undefined },
    tags: (row.tags ?? {}) as InvoiceItem['tags'],
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
    amount: money(row.amount),
    amountExclusiveTax: money(row.amount_exclusive_tax),
    tax: money(row.tax),
    currency: row.currency,
    payment: (row.payment as Payment | null) ?? null,
  };
}

export async function listRequestInvoices(
  db: DbOrTrx,
  actor: Actor,
  request: RequestRow,
): Promise<InvoiceItem[]> {
  if (!isRequestStaff(actor, request)) return [];
  const rows = await listInvoices(db, request.request_number);
  return rows.map(toInvoiceItem);
}
