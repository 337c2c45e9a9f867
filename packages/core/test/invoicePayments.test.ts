import { describe, expect, it } from 'vitest';
import {
  amountsAddUp,
  balanceSplit,
  formatMinorUnits,
  invoiceBalance,
  paymentAmountError,
  paymentSettles,
} from '../src/index.js';

// The balance rule the server refuses payments by and the web shows (issue 23).

describe('invoice balance', () => {
  it('is the amount billed less the payments; unknown when nothing was billed', () => {
    expect(invoiceBalance(135_795, [{ amount: 110_000 }])).toEqual({
      billed: 135_795,
      paid: 110_000,
      balance: 25_795,
    });
    expect(invoiceBalance(135_795, [])).toEqual({ billed: 135_795, paid: 0, balance: 135_795 });
    expect(invoiceBalance(null, [{ amount: 500 }])).toEqual({ billed: null, paid: 500, balance: null });
  });

  it('refuses nothing, less than nothing, more than the balance and another currency', () => {
    const invoice = { amount: 6_600, currency: 'AUD' };
    expect(paymentAmountError(invoice, 0, { amount: 0, currency: 'AUD' })).toBe(
      'The amount must be more than zero.',
    );
    expect(paymentAmountError(invoice, 0, { amount: -1, currency: 'AUD' })).toBe(
      'The amount must be more than zero.',
    );
    expect(paymentAmountError(invoice, 2_200, { amount: 4_401, currency: 'AUD' })).toBe(
      'The amount cannot exceed the balance of AUD 44.00.',
    );
    expect(paymentAmountError(invoice, 0, { amount: 100, currency: 'USD' })).toBe(
      "Pay in the invoice's currency, AUD.",
    );
    expect(paymentAmountError(invoice, 2_200, { amount: 4_400, currency: 'AUD' })).toBeUndefined();
    expect(
      paymentAmountError({ amount: null, currency: null }, 0, { amount: 1, currency: 'USD' }),
    ).toBeUndefined();
  });

  it('settles when the balance reaches zero, or at once when nothing was billed', () => {
    expect(paymentSettles(6_600, 2_200, 4_400)).toBe(true);
    expect(paymentSettles(6_600, 2_200, 4_399)).toBe(false);
    expect(paymentSettles(null, 0, 1)).toBe(true);
    expect(formatMinorUnits(135_795)).toBe('1,357.95');
  });
});

describe('invoice amounts', () => {
  it('add up when amount = amount excl. tax + tax, or when one of them is left out', () => {
    expect(amountsAddUp({ amount: 1_100, amountExclusiveTax: 1_000, tax: 100 })).toBe(true);
    expect(amountsAddUp({ amount: 1_000, amountExclusiveTax: 1_000, tax: 100 })).toBe(false);
    expect(amountsAddUp({ amount: 1_000, amountExclusiveTax: null, tax: 100 })).toBe(true);
    expect(amountsAddUp({ amount: 1_000, tax: 0 })).toBe(true);
  });
});

describe('balanceSplit (issue 33 item 23)', () => {
  const invoice = { amount: 11000, amountExclusiveTax: 10000, tax: 1000 };

  it('splits the balance into what is left of the amount excl. tax and of the tax', () => {
    expect(balanceSplit(invoice, [{ amount: 5500, amountExclusiveTax: 5000, tax: 500 }])).toEqual({
      amount: 5500,
      amountExclusiveTax: 5000,
      tax: 500,
    });
  });

  it('splits by the invoice tax share when the earlier payments paid more tax than billed', () => {
    const split = balanceSplit(invoice, [{ amount: 3000, amountExclusiveTax: 1000, tax: 2000 }]);
    expect(split).toEqual({ amount: 8000, amountExclusiveTax: 7273, tax: 727 });
    expect(split && split.amountExclusiveTax + split.tax).toBe(split?.amount);
  });

  it('proposes nothing to split without a billed amount or tax', () => {
    expect(balanceSplit({ amount: null, amountExclusiveTax: null, tax: null }, [])).toBeUndefined();
    expect(balanceSplit({ amount: 11000, amountExclusiveTax: null, tax: null }, [])).toBeUndefined();
  });
});
