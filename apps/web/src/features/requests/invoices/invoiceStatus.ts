import type { InvoiceItem } from '@dossier/core';

export type InvoiceStatus = 'discarded' | 'paidConfirmed' | 'paid' | 'waiting';

/** The badge of an invoice, by display priority: discarded, paid-confirmed, paid. */
export function invoiceStatus(invoice: InvoiceItem): InvoiceStatus {
  if (invoice.discardedAt) return 'discarded';
  if (invoice.paymentConfirmedAt) return 'paidConfirmed';
  if (invoice.paidAt) return 'paid';
  return 'waiting';
}

export const INVOICE_STATUS_COLORS: Record<InvoiceStatus, string> = {
  discarded: 'red',
  paidConfirmed: 'green',
  paid: 'teal',
  waiting: 'yellow',
};
