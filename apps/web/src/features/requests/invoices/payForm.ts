import { amountsAddUp, isValidEmail, type PaymentMethod } from '@dossier/core';
import { parseCurrencyInput } from './money';

// The pay form's state and rules (validation rules, pay invoice), kept apart from the
// component: amounts are typed in major units and sent in minor units.

export interface PayFormState {
  payeeId: string | null;
  payeeName: string;
  payeeReferenceNumber: string;
  payeeEmail: string;
  method: PaymentMethod | null;
  amountExclusiveTax: string;
  tax: string;
  amount: string;
  currency: string;
  nameOnCard: string;
  bankAccount: string;
  invoiceReferenceNumber: string;
}

/** The message key of every field that stops Confirm (required, currency format, sum). */
export function payFormErrors(form: PayFormState): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.payeeName.trim()) errors.payeeName = 'required';
  if (!form.method) errors.method = 'required';
  if (!form.currency) errors.currency = 'required';
  for (const field of ['amountExclusiveTax', 'tax', 'amount'] as const) {
    if (!form[field].trim()) errors[field] = 'required';
    else if (parseCurrencyInput(form[field]) === undefined) errors[field] = 'currency';
  }
  const amounts = {
    amount: parseCurrencyInput(form.amount),
    amountExclusiveTax: parseCurrencyInput(form.amountExclusiveTax),
    tax: parseCurrencyInput(form.tax),
  };
  if (!errors.amount && !errors.amountExclusiveTax && !errors.tax && !amountsAddUp(amounts))
    errors.amount = 'sum';
  if (form.method === 'creditCard' && !form.nameOnCard.trim()) errors.nameOnCard = 'required';
  if (form.method === 'bankTransfer' && !form.bankAccount.trim()) errors.bankAccount = 'required';
  if (form.payeeEmail.trim() && !isValidEmail(form.payeeEmail.trim())) errors.payeeEmail = 'email';
  return errors;
}

/** The body of the pay action. */
export function payBody(form: PayFormState) {
  const text = (v: string) => v.trim() || null;
  return {
    payeeId: form.payeeId,
    payeeName: form.payeeName.trim(),
    payeeReferenceNumber: text(form.payeeReferenceNumber),
    payeeEmail: text(form.payeeEmail),
    method: form.method,
    amountExclusiveTax: parseCurrencyInput(form.amountExclusiveTax),
    tax: parseCurrencyInput(form.tax),
    amount: parseCurrencyInput(form.amount),
    currency: form.currency,
    nameOnCard: form.method === 'creditCard' ? text(form.nameOnCard) : null,
    bankAccount: form.method === 'bankTransfer' ? text(form.bankAccount) : null,
    invoiceReferenceNumber: text(form.invoiceReferenceNumber),
  };
}
