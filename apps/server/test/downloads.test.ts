import { PERMISSIONS, permissionsOfRoles } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { assertMayUseDownloads } from '../src/features/downloads/policy.js';
import { getDownloadFilesView } from '../src/features/downloads/service.js';
import type { Actor } from '../src/http/actor.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { uploadPdf } from './support/resultsInvoices.js';

// Download files: the quality-assured results a user may see (those still to download first, then
// the downloaded ones, which stay listed), every fetch of a result's file recorded (issue 23 item 4:
// downloaded means the sender side got the bytes; staff fetches are recorded, not marked), the
// download-tracking feature and the permissions the page needs, and the cap on the list.

let t: TestContext;
const USERS = ['fhandler', 'facme', 'fmanager'] as const;
type User = (typeof USERS)[number];
const cookies = {} as Record<User, string>; // every user's, from beforeAll
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

const view = async (user: User) =>
  t.app.inject({ method: 'GET', url: '/results/download-files', headers: { ...XHR, cookie: cookies[user] } });

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'fhandler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'facme', roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }] });
  await createUser(t.db, { id: 'fmanager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  for (const u of USERS) cookies[u] = await signIn(t.app, u);
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
  });
});

describe('downloading a result', () => {
  // A real file of the request, a delivered result of it, and one awaiting QA.
  let n: string;
  let key: string;
  let pendingKey: string;
  let delivered: string;
  const fetchFile = (user: User, fileKey: string) =>
    t.app.inject({ url: `/files/${fileKey}?attachment=1`, headers: { ...XHR, cookie: cookies[user] } });
  const downloadsOf = (fileKey: string) =>
    t.db
      .selectFrom('file_downloads')
      .select(['user_id', 'by_sender', 'request_number'])
      .where('file_key', '=', fileKey)
      .orderBy('id')
      .execute();
  const resultRow = (id: string) =>
    t.db
      .selectFrom('request_results')
      .select(['downloaded_at', 'downloaded_by'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const historyOf = async (user: User) =>
    (await t.app.inject({ url: `/requests/${n}/history`, headers: { ...XHR, cookie: cookies[user] } })).json()
      .history as { type: string; summary: string; actorDisplayName: string }[];

  beforeAll(async () => {
    n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
    const own = async (name: string) => {
      const fileKey = await uploadPdf(t, cookies.fhandler, name);
      await t.db
        .updateTable('files')
        .set({ owner_type: 'request', owner_id: n, classification: 'result' })
        .where('key', '=', fileKey)
        .execute();
      return fileKey;
    };
    key = await own('records.pdf');
    pendingKey = await own('pending.pdf');
    delivered = await result(n, {
      file_key: key,
      quality_assured_at: new Date(),
      quality_assured_by: 'fhandler',
    });
    await result(n, { file_key: pendingKey });
  });

  it('by staff is recorded and in the history, but does not mark it downloaded for the sender', async () => {
    const res = await fetchFile('fhandler', key);
    expect(res.statusCode).toBe(200);
    expect(await downloadsOf(key)).toEqual([{ user_id: 'fhandler', by_sender: false, request_number: n }]);
    expect((await resultRow(delivered)).downloaded_at).toBeNull();
    const item = (await view('facme'))
      .json()
      .results.find((r: { resultId: string }) => r.resultId === delivered);
    expect(item).toMatchObject({ downloadedAt: null, downloadedBy: null });
    const [entry] = await historyOf('fhandler');
    expect(entry).toMatchObject({
      type: 'request.resultDownloaded',
      summary: 'Downloaded records.pdf.',
      actorDisplayName: 'User fhandler',
    });
  });

  it('by the sender side marks it downloaded (once) and records every fetch', async () => {
    expect((await fetchFile('facme', key)).statusCode).toBe(200);
    const first = await resultRow(delivered);
    expect(first.downloaded_by).toBe('facme');
    expect(first.downloaded_at).toBeInstanceOf(Date);
    // The result's link (no ?attachment) is a fetch like any other; the first download stays.
    const again = await t.app.inject({ url: `/files/${key}`, headers: { ...XHR, cookie: cookies.facme } });
    expect(again.statusCode).toBe(200);
    expect(await resultRow(delivered)).toEqual(first);
    expect((await downloadsOf(key)).map((d) => [d.user_id, d.by_sender])).toEqual([
      ['fhandler', false],
      ['facme', true],
      ['facme', true],
    ]);
    const item = (await view('facme'))
      .json()
      .results.find((r: { resultId: string }) => r.resultId === delivered);
    expect(item).toMatchObject({ downloadedBy: 'facme', downloadedByDisplayName: 'User facme' });
    // Staff reads are staff business: the sender side's history shows its own downloads only.
    const sees = await historyOf('facme');
    expect(sees.filter((h) => h.type === 'request.resultDownloaded')).toHaveLength(2);
    expect(sees.map((h) => h.actorDisplayName)).not.toContain('User fhandler');
    expect((await historyOf('fhandler')).filter((h) => h.type === 'request.resultDownloaded')).toHaveLength(
      3,
    );
    expect(sees[0]?.summary).toBe('Downloaded records.pdf.');
  });

  it('refused, records nothing; a result not delivered is recorded as staff business only', async () => {
    expect((await fetchFile('facme', pendingKey)).statusCode).toBe(403);
    expect(await downloadsOf(pendingKey)).toEqual([]);
    expect((await fetchFile('fhandler', pendingKey)).statusCode).toBe(200);
    expect(await downloadsOf(pendingKey)).toEqual([
      { user_id: 'fhandler', by_sender: false, request_number: n },
    ]);
    expect((await historyOf('fhandler'))[0]).toMatchObject({
      type: 'request.undeliveredResultDownloaded',
      summary: 'Downloaded pending.pdf.',
    });
    expect(JSON.stringify(await historyOf('facme'))).not.toContain('pending.pdf');
  });

  it('a file that is no result is not recorded', async () => {
    const other = await uploadPdf(t, cookies.fhandler, 'authority.pdf');
    await t.db
      .updateTable('files')
      .set({ owner_type: 'request', owner_id: n })
      .where('key', '=', other)
      .execute();
    expect((await fetchFile('facme', other)).statusCode).toBe(200);
    expect(await downloadsOf(other)).toEqual([]);
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

  it('refuses the page and the request-results report (403), changing nothing', async () => {
    const get = (url: string) => off.app.inject({ url, headers: { ...XHR, cookie } });
    expect((await get('/results/download-files')).statusCode).toBe(403);
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
