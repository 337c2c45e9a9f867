import type { InvoiceItem, ResultItem } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import { invoiceStatus } from '../src/features/requests/invoices/invoiceStatus';
import { formatMinorUnits, parseCurrencyInput } from '../src/features/requests/invoices/money';
import { type PayFormState, payBody, payFormErrors } from '../src/features/requests/invoices/payForm';
import { resultStatus } from '../src/features/requests/results/resultStatus';

describe('currency input (digits, optional thousands commas, up to 2 decimals, minor units)', () => {
  it('parses what the rule allows into minor units', () => {
    expect(parseCurrencyInput('0')).toBe(0);
    expect(parseCurrencyInput('12')).toBe(1200);
    expect(parseCurrencyInput('12.5')).toBe(1250);
    expect(parseCurrencyInput('1,234.56')).toBe(123456);
    expect(parseCurrencyInput(' 1234567.01 ')).toBe(123456701);
    expect(parseCurrencyInput('0.29')).toBe(29);
  });
  it('refuses everything else', () => {
    for (const text of ['', '1.234', '12,34', '1,2345', '-5', '1e3', '.5', '5.', 'abc', '1,234,56'])
      expect(parseCurrencyInput(text)).toBeUndefined();
  });
  it('formats minor units with thousands commas', () => {
    expect(formatMinorUnits(123456)).toBe('1,234.56');
    expect(formatMinorUnits(5)).toBe('0.05');
  });
});

describe('pay form rules', () => {
  const base: PayFormState = {
    payeeId: null,
    payeeName: 'Sydney City Hospital',
    payeeReferenceNumber: '',
    payeeEmail: '',
    method: 'cheque',
    amountExclusiveTax: '100',
    tax: '10',
    amount: '110.00',
    currency: 'AUD',
    nameOnCard: '',
    bankAccount: '',
    invoiceReferenceNumber: '',
  };
  it('allows Confirm when amount = amount excl. tax + tax and the required fields are there', () => {
    expect(payFormErrors(base)).toEqual({});
    expect(payBody(base)).toMatchObject({
      amountExclusiveTax: 10000,
      tax: 1000,
      amount: 11000,
      bankAccount: null,
    });
  });
  it('marks the amount when the sum is wrong, and the method fields when missing', () => {
    expect(payFormErrors({ ...base, amount: '111' })).toEqual({ amount: 'sum' });
    expect(payFormErrors({ ...base, method: 'creditCard' })).toEqual({ nameOnCard: 'required' });
    expect(payFormErrors({ ...base, method: 'bankTransfer' })).toEqual({ bankAccount: 'required' });
    expect(payFormErrors({ ...base, payeeName: ' ', method: null, tax: '1.234' })).toEqual({
      payeeName: 'required',
      method: 'required',
      tax: 'currency',
    });
  });
});

describe('display priority (states)', () => {
  const result = { qualityAssuranceSkipped: false } as ResultItem;
  it('results: discarded, downloaded, QA Done', () => {
    expect(resultStatus({ ...result, discardedAt: 'x', downloadedAt: 'x', qualityAssuredAt: 'x' })).toBe(
      'discarded',
    );
    expect(resultStatus({ ...result, downloadedAt: 'x', qualityAssuredAt: 'x' })).toBe('downloaded');
    expect(resultStatus({ ...result, qualityAssuredAt: 'x' })).toBe('qaDone');
    expect(resultStatus({ ...result, qualityAssuranceSkipped: true })).toBe('qaSkipped');
    expect(resultStatus(result)).toBe('awaitingQa');
  });
  it('invoices: discarded, paid-confirmed, paid', () => {
    const invoice = {} as InvoiceItem;
    expect(invoiceStatus({ ...invoice, discardedAt: 'x', paidAt: 'x', paymentConfirmedAt: 'x' })).toBe(
      'discarded',
    );
    expect(invoiceStatus({ ...invoice, paidAt: 'x', paymentConfirmedAt: 'x' })).toBe('paidConfirmed');
    expect(invoiceStatus({ ...invoice, paidAt: 'x' })).toBe('paid');
    expect(invoiceStatus(invoice)).toBe('waiting');
  });
});
