import {
  accessDeniedViewSchema,
  accountConfirmedViewSchema,
  accountViewSchema,
  adminOutboxViewSchema,
  adminPayeesViewSchema,
  adminPayeeViewSchema,
  adminRecipientsViewSchema,
  adminRecipientViewSchema,
  adminUsersViewSchema,
  adminUserViewSchema,
  changePasswordViewSchema,
  configurationListViewSchema,
  dashboardTileSchema,
  dashboardViewSchema,
  downloadFilesViewSchema,
  entryViewSchema,
  findRequestsViewSchema,
  forgotPasswordViewSchema,
  homeViewSchema,
  inboxViewSchema,
  invalidUrlViewSchema,
  newRequestViewSchema,
  outboxMessageViewSchema,
  passwordResetRequestedSchema,
  reportViewSchema,
  requestInvoiceViewSchema,
  requestResultViewSchema,
  requestViewSchema,
  richTextPageViewSchema,
  selectRecipientViewSchema,
  setPasswordViewSchema,
  signInViewSchema,
  ssoReauthenticatedViewSchema,
  taskSkillsViewSchema,
} from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { post, uploadPdf } from './support/resultsInvoices.js';

// Every main view, fetched as the web app fetches it and parsed with its contract: a key the server
// sends and the contract lacks, or a value of another shape, fails here instead of drifting.

let t: TestContext;
const USERS = ['root', 'handler', 'submitter'] as const;
type User = (typeof USERS)[number];
const cookies = {} as Record<User, string>; // every user's, from beforeAll
let n: string;

beforeAll(async () => {
  t = await createTestContext({ selfRegistration: true });
  await seedConfiguration(t.db, { demo: false });
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  for (const id of USERS) cookies[id] = await signIn(t.app, id);
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
});
afterAll(() => t.close());

async function view(user: User | null, url: string, status = 200) {
  const res = await t.app.inject({ url, headers: { ...XHR, ...(user ? { cookie: cookies[user] } : {}) } });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
  return res.json();
}

/** The view embedded in the page a browser gets (refusals are answered so only to a browser). */
async function pageView(user: User, url: string, status: number) {
  const res = await t.app.inject({ url, headers: { cookie: cookies[user] } });
  expect(res.statusCode, url).toBe(status);
  const state = /<script id="initial-state" type="application\/json">(.*?)<\/script>/s.exec(res.body);
  return JSON.parse(state?.[1] ?? '{}').view;
}

function check<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`${JSON.stringify(parsed.error.issues)}\nin ${JSON.stringify(value)}`);
  return parsed.data;
}

describe('the views answer their contracts', () => {
  it('pages anyone may open', async () => {
    check(signInViewSchema, await view(null, '/signin'));
    check(forgotPasswordViewSchema, await view(null, '/forgot-password'));
    check(setPasswordViewSchema, await view(null, '/set-password?token=nothing'));
    check(accountViewSchema, await view(null, '/account/create'));
    check(changePasswordViewSchema, await view(null, '/account/change-password?username=root'));
    check(accountConfirmedViewSchema, await view(null, '/account/confirm?token=nothing', 400));
    check(richTextPageViewSchema, await view('submitter', '/help'));
  });

  it('the refusals a browser gets as pages', async () => {
    check(accessDeniedViewSchema, await pageView('submitter', '/admin/users', 403));
    check(invalidUrlViewSchema, await pageView('submitter', '/no/such/page', 404));
  });

  it('the own account and the single sign-on landing', async () => {
    check(accountViewSchema, await view('root', '/account'));
    check(accountViewSchema, await view('submitter', '/account?action=addRole'));
    check(ssoReauthenticatedViewSchema, await view('root', '/sso/reauthenticated'));
  });

  it('the dashboard and each of its tiles', async () => {
    const dashboard = check(dashboardViewSchema, await view('handler', '/dashboard'));
    expect(dashboard.tiles.length).toBeGreaterThan(0);
    for (const tile of dashboard.tiles)
      check(dashboardTileSchema, await view('handler', `/dashboard/${tile}`));
  });

  it('home, inbox, the request page, the wizard and the configuration', async () => {
    check(homeViewSchema, await view('handler', '/'));
    check(homeViewSchema, await view('submitter', '/'));
    check(inboxViewSchema, await view('handler', '/inbox'));
    check(requestViewSchema, await view('handler', `/requests/${n}`));
    check(requestViewSchema, await view('submitter', `/requests/${n}`));
    check(newRequestViewSchema, await view('submitter', '/requests/new'));
    check(configurationListViewSchema, await view('root', '/admin/configuration'));
    check(entryViewSchema, await view('root', '/admin/configuration/edit/root/c'));
    check(entryViewSchema, await view('root', '/admin/configuration/edit/root/templateIssueRequest'));
    check(downloadFilesViewSchema, await view('handler', '/results/download-files'));
  });

  it('user, recipient and payee administration', async () => {
    check(adminUsersViewSchema, await view('root', '/admin/users'));
    check(adminUserViewSchema, await view('root', '/admin/users/edit'));
    check(adminUserViewSchema, await view('root', '/admin/users/edit/handler'));
    check(adminRecipientsViewSchema, await view('root', '/admin/recipients'));
    check(adminRecipientViewSchema, await view('root', '/admin/recipients/edit'));
    const recipient = await post(t, cookies.root, '/admin/recipients/edit', {
      name: 'Sydney Eye Hospital',
      phone: '02 9382 7111',
      email: 'records@sydeye.example',
      country: 'AU',
      tags: { kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' } },
      contacts: [{ name: 'Dr Ada Lens', position: 'Records', email: 'ada@sydeye.example' }],
    });
    expect(recipient.statusCode, recipient.body).toBe(200);
    const saved = check(adminRecipientViewSchema, recipient.json());
    check(adminRecipientViewSchema, await view('root', `/admin/recipients/edit/${saved.recipientId}`));
    check(adminPayeesViewSchema, await view('root', '/admin/payees'));
    check(adminPayeeViewSchema, await view('root', '/admin/payees/edit'));
  });

  it('finding requests, the recipient choice, a result and an invoice', async () => {
    check(findRequestsViewSchema, await view('handler', '/requests/find'));
    check(selectRecipientViewSchema, await view('handler', `/requests/${n}/select-recipient`));
    check(
      selectRecipientViewSchema,
      await view('handler', `/requests/${n}/select-recipient?search.name=eye&trigger=search`),
    );
    const result = await post(t, cookies.handler, `/requests/${n}/actions/addResult`, {
      file: { key: await uploadPdf(t, cookies.handler) },
      tags: { documentType: 'Medical records' },
    });
    expect(result.statusCode, result.body).toBe(200);
    const resultId = (await t.db.selectFrom('request_results').select('id').executeTakeFirstOrThrow()).id;
    check(requestResultViewSchema, await view('handler', `/requests/${n}/results/${resultId}`));
    const invoice = await post(t, cookies.handler, `/requests/${n}/actions/addInvoice`, {
      file: { key: await uploadPdf(t, cookies.handler, 'invoice.pdf') },
      tags: { invoiceType: 'Records fee' },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    const invoiceId = invoice.json().invoiceId as string;
    check(requestInvoiceViewSchema, await view('handler', `/requests/${n}/invoices/${invoiceId}`));
  });

  it('the outbox and one message, reports and task skills', async () => {
    const reset = await t.app.inject({
      method: 'POST',
      url: '/reset-password',
      headers: XHR,
      payload: { email: 'handler@test.example' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    check(passwordResetRequestedSchema, reset.json());
    check(adminOutboxViewSchema, await view('root', '/admin/outbox'));
    const mail = await t.db.selectFrom('mail_outbox').select('id').executeTakeFirstOrThrow();
    check(outboxMessageViewSchema, await view('root', `/admin/outbox/${mail.id}`));
    for (const path of ['/reports/tasks/active', '/reports/requests/open', '/reports/invoices/paid'])
      check(reportViewSchema, await view('root', path));
    check(taskSkillsViewSchema, await view('root', '/tasks/skills/levels'));
    check(taskSkillsViewSchema, await view('root', '/tasks/skills/status'));
  });
});
