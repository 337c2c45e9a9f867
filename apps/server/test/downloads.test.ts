import { PERMISSIONS, permissionsOfRoles } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import type { Actor } from '../src/features/auth/actor.js';
import { assertMayUseDownloads } from '../src/features/downloads/policy.js';
import { getDownloadFilesView } from '../src/features/downloads/service.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// Download files: the quality-assured results a user may see (those still to download first, then
// the downloaded ones, which stay listed), marking one downloaded, the download-tracking feature and
// the permissions the page needs, and the cap on the list (DOWNLOADS_MAX_RESULTS).

let t: TestContext;
const cookies: Record<string, string> = {};
const ids: Record<string, string> = {};
const MINUTE = 60_000;

async function result(requestNumber: string, values: Record<string, unknown>) {
  const row = await t.db
    .insertInto('request_results')
    .values({ request_number: requestNumber, file_key: `key-${Math.random()}`, ...values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const view = async (user: string) =>
  t.app.inject({ method: 'GET', url: '/results/download-files', headers: { ...XHR, cookie: cookies[user] } });
const mark = async (user: string, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/results/download-files/${id}/downloaded`,
    headers: { ...XHR, cookie: cookies[user] },
  });

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'fhandler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'facme', roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }] });
  await createUser(t.db, { id: 'fmanager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  for (const u of ['fhandler', 'facme', 'fmanager']) cookies[u] = await signIn(t.app, u);
  const acme = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
  const globex = await insertTestRequest(t.db, {
    scope: '/org/globex/',
    status: 'open',
    applicant: { name: 'Globex Person' },
  });
  const now = Date.now();
  ids.acmeOld = await result(acme, {
    quality_assured_at: new Date(now - 10 * MINUTE),
    quality_assured_by: 'fhandler',
  });
  ids.acmeNew = await result(acme, {
    quality_assured_at: new Date(now - MINUTE),
    item_types: JSON.stringify([{ id: 'gp', name: 'GP Notes' }]),
  });
  ids.globex = await result(globex, { quality_assured_at: new Date(now - 5 * MINUTE) });
  ids.awaiting = await result(acme, {});
  ids.discarded = await result(acme, { quality_assured_at: new Date(), discarded_at: new Date() });
  ids.done = await result(acme, { quality_assured_at: new Date(), downloaded_at: new Date() });
});

afterAll(async () => {
  await t?.close();
});

describe('the download-files list', () => {
  it('lists quality-assured results to download, newest QA first, then downloaded ones, across scopes', async () => {
    const res = await view('fhandler');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ $type: 'downloadFiles', maxNumberResultsFetched: 100 });
    expect(body.results.map((r: { resultId: string }) => r.resultId)).toEqual([
      ids.acmeNew,
      ids.globex,
      ids.acmeOld,
      ids.done,
    ]);
    expect(body.results[3].downloadedAt).not.toBeNull();
    expect(body.results[0]).toMatchObject({
      subject: 'Jane Citizen',
      itemTypes: [{ id: 'gp', name: 'GP Notes' }],
    });
    expect(body.results[2].qualityAssuredByDisplayName).toBe('User fhandler');
  });

  it('shows a submitter only the results of its own scope', async () => {
    const body = (await view('facme')).json();
    expect(body.results.map((r: { resultId: string }) => r.resultId)).toEqual([
      ids.acmeNew,
      ids.acmeOld,
      ids.done,
    ]);
    expect(JSON.stringify(body)).not.toContain('Globex');
  });

  it('refuses a user without file:view:markAsDownloaded', async () => {
    expect((await view('fmanager')).statusCode).toBe(403);
    expect((await mark('fmanager', ids.acmeOld)).statusCode).toBe(403);
  });
});

describe('marking a result downloaded', () => {
  it('records who and when once, keeps the result listed as downloaded, then refuses a second time', async () => {
    const res = await mark('facme', ids.acmeOld);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ downloadedBy: 'facme', downloadedByDisplayName: 'User facme' });
    const row = await t.db
      .selectFrom('request_results')
      .select(['downloaded_at', 'downloaded_by'])
      .where('id', '=', ids.acmeOld)
      .executeTakeFirstOrThrow();
    expect(row.downloaded_by).toBe('facme');
    expect(row.downloaded_at).toBeInstanceOf(Date);
    expect((await mark('facme', ids.acmeOld)).statusCode).toBe(409);
    // Refresh: still listed, among the downloaded ones (newest QA first), with who and when.
    const list = (await view('facme')).json();
    expect(list.results.map((r: { resultId: string }) => r.resultId)).toEqual([
      ids.acmeNew,
      ids.done,
      ids.acmeOld,
    ]);
    expect(list.results[2]).toMatchObject({
      downloadedBy: 'facme',
      downloadedByDisplayName: 'User facme',
      downloadedAt: row.downloaded_at?.toISOString(),
    });
  });

  it('refuses another scope (403), unknown results (404) and results not ready (409)', async () => {
    expect((await mark('facme', ids.globex)).statusCode).toBe(403);
    expect((await mark('facme', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await mark('facme', 'nonsense')).statusCode).toBe(404);
    expect((await mark('facme', ids.awaiting)).statusCode).toBe(409);
    expect((await mark('facme', ids.discarded)).statusCode).toBe(409);
    const row = await t.db
      .selectFrom('request_results')
      .select('downloaded_at')
      .where('id', '=', ids.globex)
      .executeTakeFirstOrThrow();
    expect(row.downloaded_at).toBeNull();
  });
});

const actorWith = (permissions: Actor['permissions'], roles: Actor['roles'] = []): Actor => ({
  id: 'fsynthetic',
  name: 'Synthetic',
  email: 'synthetic@test.example',
  locale: 'en-au',
  countryCode: '+61',
  scope: '/',
  roles,
  permissions,
  sessionId: 's',
});
const ON = { resultFileDownloadTracking: true };

describe('who may use download files', () => {
  it('needs request:view:content besides file:view:markAsDownloaded, and the feature', () => {
    // Every role with file:view:markAsDownloaded also has request:view:content, so the rule itself
    // is asserted here.
    expect(() => assertMayUseDownloads(actorWith(['file:view:markAsDownloaded']), ON)).toThrow(/not allowed/);
    expect(() => assertMayUseDownloads(actorWith(['request:view:content']), ON)).toThrow(/not allowed/);
    const both = actorWith(['file:view:markAsDownloaded', 'request:view:content']);
    expect(() => assertMayUseDownloads(both, ON)).not.toThrow();
    expect(() => assertMayUseDownloads(both, {})).toThrow(/switched off/);
  });

  it('holds at most maxResults results and tells the page so', async () => {
    const admin = actorWith([...PERMISSIONS], [{ role: 'c:roles:admin', scope: '/' }]);
    expect(admin.permissions).toEqual(permissionsOfRoles(['c:roles:admin']));
    const capped = await getDownloadFilesView(t.db, admin, { features: ON, maxResults: 2 });
    expect(capped.maxNumberResultsFetched).toBe(2);
    expect(capped.results.map((r) => r.resultId)).toEqual([ids.acmeNew, ids.globex]);
  });

  it('reads DOWNLOADS_MAX_RESULTS (default 100, 1 to 1000) and RESULT_FILE_DOWNLOAD_TRACKING', () => {
    expect(loadConfig({}).downloads).toEqual({ tracking: true, maxResults: 100 });
    expect(loadConfig({ DOWNLOADS_MAX_RESULTS: '250' }).downloads.maxResults).toBe(250);
    expect(loadConfig({ RESULT_FILE_DOWNLOAD_TRACKING: 'false' }).downloads.tracking).toBe(false);
    for (const bad of ['0', '1001', 'many', '2.5'])
      expect(() => loadConfig({ DOWNLOADS_MAX_RESULTS: bad })).toThrow(ConfigError);
  });
});

describe('with download tracking switched off', () => {
  let off: TestContext;
  let cookie: string;
  let resultId: string;
  beforeAll(async () => {
    off = await createTestContext({ downloads: { tracking: false, maxResults: 100 } });
    await createUser(off.db, { id: 'oadmin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    cookie = await signIn(off.app, 'oadmin');
    const n = await insertTestRequest(off.db, { scope: '/org/acme/', status: 'open' });
    const row = await off.db
      .insertInto('request_results')
      .values({ request_number: n, file_key: 'k', quality_assured_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    resultId = row.id;
  });
  afterAll(async () => {
    await off?.close();
  });

  it('refuses the page, the download action and the request-results report (403), changing nothing', async () => {
    const get = (url: string) => off.app.inject({ url, headers: { ...XHR, cookie } });
    expect((await get('/results/download-files')).statusCode).toBe(403);
    const post = await off.app.inject({
      method: 'POST',
      url: `/results/download-files/${resultId}/downloaded`,
      headers: { ...XHR, cookie },
    });
    expect(post.statusCode).toBe(403);
    for (const url of [
      '/reports/request-results',
      '/reports/request-results/filter',
      '/reports/request-results?export=csv',
    ])
      expect((await get(url)).statusCode, url).toBe(403);
    // Other reports stay open to the administrator.
    expect((await get('/reports/requests/closed/filter')).statusCode).toBe(200);
    const row = await off.db
      .selectFrom('request_results')
      .select('downloaded_at')
      .where('id', '=', resultId)
      .executeTakeFirstOrThrow();
    expect(row.downloaded_at).toBeNull();
    // The initial state tells the browser the feature is off, so the menu leaves the entries out.
    const page = await off.app.inject({ url: '/dashboard', headers: { cookie } });
    expect(page.body).toContain('"resultFileDownloadTracking":false');
  });
});
