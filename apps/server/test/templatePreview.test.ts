import { configurationIdOf } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { seedDemoRequests } from '../src/db/seedRequests.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

// Issue 18: a template's preview reads as for a real request of the configuration's scope.

let t: TestContext;
const ACME = configurationIdOf('/org/acme/');
const GLOBEX = configurationIdOf('/org/globex/');
const paragraph = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  invalidateConfigurationCache(t.db);
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  await t.db.transaction().execute((trx) => seedDemoRequests(trx, t.config));
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
});
afterAll(() => t.close());

const preview = (cookie: string, configurationId: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/admin/configuration/edit/${configurationId}/template-preview`,
    headers: { ...XHR, cookie },
    payload: payload as object,
  });

describe('template preview with a real request', () => {
  it('renders the unsaved subject and body over the newest request of the scope', async () => {
    const cookie = await signIn(t.app, 'acmeadmin');
    const newest = await t.db
      .selectFrom('requests')
      .select(['request_number', 'applicant'])
      .where('scope', 'like', '/org/acme/%')
      .orderBy('submitted_at', 'desc')
      .orderBy('request_number', 'desc')
      .executeTakeFirstOrThrow();
    const res = await preview(cookie, ACME, {
      subject: 'Request ${request.requestNumber}',
      body: paragraph('Records of ${request.applicant.name} for ${request.sender.name}.'),
    });
    expect(res.statusCode, res.body).toBe(200);
    const applicant = newest.applicant as { name: string };
    expect(res.json()).toEqual({
      requestNumber: newest.request_number,
      subject: `Request ${newest.request_number}`,
      body: paragraph(`Records of ${applicant.name} for Acme Insurance Ltd.`),
    });
  });

  it('refuses the configuration of another organisation, and needs configuration rights', async () => {
    const cookie = await signIn(t.app, 'acmeadmin');
    expect([403, 404]).toContain((await preview(cookie, GLOBEX, { body: paragraph('x') })).statusCode);
    const submitter = await signIn(t.app, 'submitter');
    expect((await preview(submitter, ACME, { body: paragraph('x') })).statusCode).toBe(403);
  });

  it('answers no request where the scope has none', async () => {
    await createUser(t.db, { id: 'rootadmin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    await t.db.deleteFrom('requests').where('scope', 'like', '/org/globex/%').execute();
    const res = await preview(await signIn(t.app, 'rootadmin'), GLOBEX, { body: paragraph('x') });
    expect(res.json()).toEqual({ requestNumber: null, subject: null, body: null });
  });
});
