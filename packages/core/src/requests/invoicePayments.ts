// Invoice payments (issue 23): an invoice keeps the amount it was received with; each payment is a
// record of its own, and what is left to pay is worked out from both, here, so the server (which
// refuses payments by it) and the web (which shows it) can never disagree.

/** 123450 → "1,234.50" (minor units with thousands commas). */
export function formatMinorUnits(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  const whole = Math.floor(abs / 100).toLocaleString('en-AU');
  return `${sign}${whole}.${String(abs % 100).padStart(2, '0')}`;
}

export interface InvoiceBalance {
  /** The amount billed; null when the invoice was received without one. */
  billed: number | null;
  /** The sum of the payments. */
  paid: number;
  /** billed − paid; null when nothing was billed (the first payment settles such an invoice). */
  balance: number | null;
}

/** What an invoice has been paid and what is left of it (minor units). */
export function invoiceBalance(
  billed: number | null | undefined,
  payments: readonly { amount: number }[],
): InvoiceBalance {
  const paid = payments.reduce((sum, p) => sum + p.amount, 0);
  const known = billed ?? null;
  return { billed: known, paid, balance: known === null ? null : known - paid };
}

export const PAYMENT_NOT_POSITIVE = 'The amount must be more than zero.';

/**
 * Why a payment cannot be taken against the invoice, as the error of its amount field, or
 * undefined when it can: only positive amounts, in the invoice's currency, up to the balance. An
 * invoice received without an amount or currency takes what is paid (there is nothing to hold it
 * against).
 */
export function paymentAmountError(
  invoice: { amount?: number | null; currency?: string | null },
  paid: number,
  payment: { amount: number; currency: string },
): string | undefined {
  if (!(payment.amount > 0)) return PAYMENT_NOT_POSITIVE;
  if (invoice.currency && payment.currency !== invoice.currency)
    return `Pay in the invoice's currency, ${invoice.currency}.`;
  const { balance } = invoiceBalance(invoice.amount, [{ amount: paid }]);
  if (balance !== null && payment.amount > balance)
    return `The amount cannot exceed the balance of ${invoice.currency ?? payment.currency} ${formatMinorUnits(Math.max(balance, 0))}.`;
  return undefined;
}

/** Whether a payment of `amount` leaves nothing to pay: then the invoice is paid. */
export function paymentSettles(billed: number | null | undefined, paid: number, amount: number): boolean {
  const { balance } = invoiceBalance(billed, [{ amount: paid + amount }]);
  return balance === null || balance <= 0;
}

export const AMOUNT_SUM_WRONG = 'The amount must equal the amount excl. tax plus the tax.';

/**
 * The invoice rule "amount = amount excl. tax + tax" (minor units), for an invoice and for a
 * payment: false only when all three are given and do not add up, so a form may leave them out.
 */
export function amountsAddUp(amounts: {
  amount?: number | null | undefined;
  amountExclusiveTax?: number | null | undefined;
  tax?: number | null | undefined;
}): boolean {
  const { amount, amountExclusiveTax, tax } = amounts;
  if (amount == null || amountExclusiveTax == null || tax == null) return true;
  return amount === amountExclusiveTax + tax;
}

/**
 * What a further payment of a part-paid invoice is proposed as: its balance, split into what is
 * left of the amount excl. tax and of the tax billed, so the three add up and Confirm works as
 * offered. When earlier payments split otherwise (more tax than billed), the balance is split by
 * the invoice's tax share. Undefined when the invoice was received without amount, excl. or tax.
 */
export function balanceSplit(
  invoice: { amount?: number | null; amountExclusiveTax?: number | null; tax?: number | null },
  payments: readonly { amount: number; amountExclusiveTax: number; tax: number }[],
): { amount: number; amountExclusiveTax: number; tax: number } | undefined {
  const { amount, amountExclusiveTax, tax } = invoice;
  if (amount == null || amountExclusiveTax == null || tax == null) return undefined;
  const balance = amount - payments.reduce((sum, p) => sum + p.amount, 0);
  if (balance <= 0) return undefined;
  const exclLeft = amountExclusiveTax - payments.reduce((sum, p) => sum + p.amountExclusiveTax, 0);
  const taxLeft = tax - payments.reduce((sum, p) => sum + p.tax, 0);
  if (exclLeft >= 0 && taxLeft >= 0 && exclLeft + taxLeft === balance)
    return { amount: balance, amountExclusiveTax: exclLeft, tax: taxLeft };
  const share = amount === 0 ? 0 : Math.round((balance * tax) / amount);
  return { amount: balance, amountExclusiveTax: balance - share, tax: share };
}
