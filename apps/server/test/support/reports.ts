import { reportAnswerSchema } from '@dossier/core';
import { expect } from 'vitest';
import { seedConfiguration } from '../../src/db/seedConfiguration.js';
import { createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { insertTestRequest } from './requests.js';

// The data of the report tests: requests, tasks, invoices and results of Acme and Globex in June
// 2026, around the King's Birthday holiday (Monday 8 June, in the seeded national holidays), with
// the figures worked out by hand in the tests. Times are 10:00 in Sydney (UTC+10 in June), so the
// local date is the day named. Users: an administrator of everything, a manager of Globex only (the
// other scope's data must never reach it), a handler without reports:view, and the handlers who
// complete and hold the tasks.

export const RANGE = 'filter.from=2026-06-01&filter.to=2026-06-30';
export const HYPERLINK = '=HYPERLINK("http://evil.example","x")';

export const at = (date: string, hour = 10) =>
  new Date(`${date}T${String(hour).padStart(2, '0')}:00:00+10:00`);

export interface ReportData {
  cookies: Record<'admin' | 'globex' | 'handler', string>;
  /** Request numbers: a1, a2 (Acme, closed in June), a3 (Acme, closed in July), g1 (Globex, closed
   * in June), o1, o2 (Acme, open and submitted), o3 (Globex, open). */
  n: Record<'a1' | 'a2' | 'a3' | 'g1' | 'o1' | 'o2' | 'o3', string>;
}

async function task(
  t: TestContext,
  values: {
    type: string;
    scope: string;
    requestNumber?: string | null;
    triggeredAt: Date;
    dueAt?: Date | null;
    completedAt?: Date | null;
    completedBy?: string | null;
    assignedTo?: string | null;
  },
) {
  await t.db
    .insertInto('tasks')
    .values({
      type: values.type,
      subject: `${values.type} task`,
      scope: values.scope,
      request_number: values.requestNumber ?? null,
      triggered_at: values.triggeredAt,
      due_at: values.dueAt ?? null,
      completed_at: values.completedAt ?? null,
      completed_by: values.completedBy ?? null,
      assigned_to: values.assignedTo ?? null,
    })
    .execute();
}

export async function seedReportData(t: TestContext): Promise<ReportData> {
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'radmin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'rglobex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:manager', scope: '/org/globex/' }],
  });
  await createUser(t.db, { id: 'rhandler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'hacme',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'hglobex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  const cookies = {
    admin: await signIn(t.app, 'radmin'),
    globex: await signIn(t.app, 'rglobex'),
    handler: await signIn(t.app, 'rhandler'),
  };

  const acme = '/org/acme/';
  const globex = '/org/globex/';
  const closed = (scope: string, submitted: string, closedOn: string, applicant?: string) =>
    insertTestRequest(t.db, {
      scope,
      status: 'closed',
      submittedAt: at(submitted),
      closedAt: at(closedOn),
      ...(applicant ? { applicant: { name: applicant } } : {}),
    });
  const n = {
    // Thu 4 June → Wed 10 June: 6 calendar days, business days 5, 9, 10 = 3 (8th a holiday).
    a1: await closed(acme, '2026-06-04', '2026-06-10', HYPERLINK),
    // Mon 1 June → Fri 5 June: 4 calendar and 4 business days.
    a2: await closed(acme, '2026-06-01', '2026-06-05'),
    a3: await closed(acme, '2026-07-01', '2026-07-15'),
    // Tue 2 June → Wed 3 June: 1 and 1.
    g1: await closed(globex, '2026-06-02', '2026-06-03', 'Globex Applicant'),
    o1: await insertTestRequest(t.db, { scope: acme, status: 'open', submittedAt: at('2026-06-01') }),
    o2: await insertTestRequest(t.db, { scope: acme, status: 'submitted', submittedAt: at('2026-06-03') }),
    o3: await insertTestRequest(t.db, { scope: globex, status: 'open', submittedAt: at('2026-06-02') }),
  };

  // Pended days: a1 waited on the sender from Fri 5 to Tue 9 June (business day 9 only), a2 was
  // deferred from Tue 2 to Thu 4 June (3 and 4). Both tasks are completed tasks of June too.
  await task(t, {
    type: 'senderActionRequired',
    scope: acme,
    requestNumber: n.a1,
    triggeredAt: at('2026-06-05'),
    completedAt: at('2026-06-09'),
    completedBy: 'hacme',
  });
  await task(t, {
    type: 'actionDeferred',
    scope: acme,
    requestNumber: n.a2,
    triggeredAt: at('2026-06-02'),
    completedAt: at('2026-06-04'),
    completedBy: 'hacme',
  });
  // Completed: a follow-up on time (1 business day), one after its due time (Fri 5 → Wed 10: 2
  // business days), and Globex's invoice payment on time (3).
  await task(t, {
    type: 'followUp',
    scope: acme,
    triggeredAt: at('2026-06-01', 9),
    dueAt: at('2026-06-03'),
    completedAt: at('2026-06-02'),
    completedBy: 'hacme',
  });
  await task(t, {
    type: 'followUp',
    scope: acme,
    triggeredAt: at('2026-06-05'),
    dueAt: at('2026-06-09'),
    completedAt: at('2026-06-10'),
    completedBy: 'hacme',
  });
  await task(t, {
    type: 'payInvoice',
    scope: globex,
    triggeredAt: at('2026-06-01'),
    dueAt: at('2026-06-05'),
    completedAt: at('2026-06-04'),
    completedBy: 'hglobex',
  });
  // Active: an overdue follow-up (due 3 June), an issue task with no due date, Globex's follow-up.
  await task(t, { type: 'followUp', scope: acme, triggeredAt: at('2026-06-01'), dueAt: at('2026-06-03') });
  await task(t, {
    type: 'issueRequest',
    scope: acme,
    triggeredAt: at('2026-06-02'),
    dueAt: new Date('9999-12-31T00:00:00Z'),
    assignedTo: 'hacme',
  });
  await task(t, {
    type: 'followUp',
    scope: globex,
    triggeredAt: at('2026-06-02'),
    dueAt: at('2030-01-01'),
    assignedTo: 'hglobex',
  });

  // Invoices (minor units): two paid in AUD for Acme, one in USD for Globex; a discarded and an
  // unpaid one that never count.
  // A paid one is paid by one payment of its amount, at its paid_at.
  const invoice = async (requestNumber: string, values: Record<string, unknown>, payee = 'Payee') => {
    const id = await insertInvoice(t, requestNumber, values);
    if (values.paid_at)
      await t.db
        .insertInto('invoice_payments')
        .values({
          invoice_id: id,
          paid_at: values.paid_at as Date,
          payee_name: payee,
          method: 'cheque',
          amount_exclusive_tax: Number(values.amount) - Number(values.tax ?? 0),
          tax: Number(values.tax ?? 0),
          amount: Number(values.amount),
          currency: String(values.currency),
        })
        .execute();
  };
  await invoice(
    n.a1,
    {
      amount: 12345,
      tax: 1122,
      currency: 'AUD',
      created_at: at('2026-06-01'),
      paid_at: at('2026-06-10'),
    },
    'Zoë Ångström Pty Ltd',
  );
  await invoice(n.a2, {
    amount: 5000,
    tax: 455,
    currency: 'AUD',
    created_at: at('2026-06-04'),
    paid_at: at('2026-06-05'),
  });
  await invoice(n.g1, {
    amount: 20000,
    tax: 0,
    currency: 'USD',
    created_at: at('2026-06-02'),
    paid_at: at('2026-06-03'),
  });
  await invoice(n.a2, {
    amount: 999,
    currency: 'AUD',
    created_at: at('2026-06-02'),
    paid_at: at('2026-06-03'),
    discarded_at: at('2026-06-04'),
  });
  await invoice(n.a1, { amount: 777, currency: 'AUD', created_at: at('2026-06-02') });

  // Results: Acme's quality-assured, downloaded and awaiting QA; Globex's discarded.
  const result = (requestNumber: string, values: Record<string, unknown>) =>
    t.db
      .insertInto('request_results')
      .values({ request_number: requestNumber, file_key: `res-${Math.random()}`, ...values })
      .execute();
  await result(n.a1, { created_at: at('2026-06-09'), quality_assured_at: at('2026-06-09') });
  await result(n.a1, {
    created_at: at('2026-06-10'),
    quality_assured_at: at('2026-06-10'),
    downloaded_at: at('2026-06-11'),
  });
  await result(n.a2, { created_at: at('2026-06-05') });
  await result(n.g1, { created_at: at('2026-06-03'), discarded_at: at('2026-06-04') });

  return { cookies, n };
}

/** An invoice of a request with the given column values (a file key of its own), answering its id. */
export async function insertInvoice(t: TestContext, requestNumber: string, values: Record<string, unknown>) {
  const row = await t.db
    .insertInto('request_invoices')
    .values({ request_number: requestNumber, file_key: `inv-${Math.random()}`, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function getAs(t: TestContext, cookie: string, url: string) {
  return t.app.inject({ method: 'GET', url, headers: { ...XHR, cookie } });
}

/**
 * A report's summary under filters (`GET {path}/filter?filter.…`), as the user of `cookie`; it must
 * answer 200. `query`: the filters as sent, to label what is compared.
 */
export async function getReport(t: TestContext, cookie: string, path: string, filters: object) {
  const query = Object.entries(filters)
    .map(([k, v]) => `filter.${k}=${encodeURIComponent(String(v))}`)
    .join('&');
  const res = await getAs(t, cookie, `${path}/filter?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return { query, answer: reportAnswerSchema.parse(res.json()) };
}

/** The Monday of a date's week (YYYY-MM-DD): where the reports' weekly charts put it. */
export function mondayOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
}
