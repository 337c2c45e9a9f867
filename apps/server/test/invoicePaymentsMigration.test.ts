import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration from '../src/db/migrations/20261125_0071_invoice_payments.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { get } from './support/resultsInvoices.js';

// Migration 0028 (issue 23): an invoice paid before payments were records of their own reads as it
// did (its stored amounts were the payment's: billed = paid, balance 0), with its payment, payee
// details and remittance advice moved into invoice_payments; down puts the newest payment back.

let t: TestContext;
let handler: string;
let n: string;
const db = () => t.db as unknown as Kysely<unknown>;

const OLD_PAYMENT = {
  payeeId: null,
  payeeName: 'Northside Medical Centre',
  payeeReferenceNumber: 'NMC-1',
  payeeEmail: 'accounts@northside.example',
  method: 'bankTransfer',
  amountExclusiveTax: 100_000,
  tax: 10_000,
  amount: 110_000,
  currency: 'AUD',
  nameOnCard: null,
  bankAccount: '062-000 1111',
  invoiceReferenceNumber: 'INV-OLD',
};

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  handler = await signIn(t.app, 'handler');
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
});
afterAll(() => t.close());

describe('migration 0028', () => {
  it('moves an old payment into invoice_payments without changing what the invoice showed', async () => {
    await migration.down(db());
    const paidAt = new Date('2026-11-20T01:00:00Z');
    const { rows } = await sql<{ id: string }>`
      insert into request_invoices (request_number, file_key, amount, amount_exclusive_tax, tax, currency,
        created_by, paid_at, paid_by, payment, remittance_advice_key)
      values (${n}, 'old-invoice', 110000, 100000, 10000, 'AUD', 'handler', ${paidAt}, 'handler',
        ${JSON.stringify(OLD_PAYMENT)}::jsonb, 'old-advice')
      returning id`.execute(db());
    const paid = rows[0]?.id as string;
    const { rows: unpaidRows } = await sql<{ id: string }>`
      insert into request_invoices (request_number, file_key, amount, currency)
      values (${n}, 'open-invoice', 6600, 'AUD') returning id`.execute(db());
    const unpaid = unpaidRows[0]?.id as string;
    await migration.up(db());

    const res = await get(t, handler, `/requests/${n}/invoices/${paid}`);
    expect(res.statusCode).toBe(200);
    const { payments, ...invoice } = res.json().invoice;
    expect(invoice).toMatchObject({
      amount: 110_000,
      amountExclusiveTax: 100_000,
      tax: 10_000,
      currency: 'AUD',
      paid: 110_000,
      balance: 0,
      paidAt: paidAt.toISOString(),
    });
    const { payeeId: _none, ...expected } = OLD_PAYMENT;
    expect(payments).toEqual([
      expect.objectContaining({
        ...expected,
        paidAt: paidAt.toISOString(),
        paidByDisplayName: 'User handler',
        remittanceAdvice: expect.objectContaining({ key: 'old-advice' }),
      }),
    ]);
    const open = (await get(t, handler, `/requests/${n}/invoices/${unpaid}`)).json().invoice;
    expect(open).toMatchObject({ amount: 6_600, paid: 0, balance: 6_600, payments: [] });

    // Down restores the one-payment shape from the newest payment.
    await migration.down(db());
    const { rows: back } = await sql<{ payment: unknown }>`
      select payment from request_invoices where id = ${paid}`.execute(db());
    expect(back[0]?.payment).toMatchObject({ ...expected, amount: 110_000 });
    await migration.up(db());
  });
});
