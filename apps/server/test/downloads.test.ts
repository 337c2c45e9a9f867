import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// Download files: the quality-assured results a user may see, and marking one downloaded.

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
  it('lists quality-assured results not yet downloaded, newest QA first, across scopes for a handler', async () => {
    const res = await view('fhandler');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ $type: 'downloadFiles', maxNumberResultsFetched: 100 });
    expect(body.results.map((r: { resultId: string }) => r.resultId)).toEqual([
      ids.acmeNew,
      ids.globex,
      ids.acmeOld,
    ]);
    expect(body.results[0]).toMatchObject({
      subject: 'Jane Citizen',
      itemTypes: [{ id: 'gp', name: 'GP Notes' }],
    });
    expect(body.results[2].qualityAssuredByDisplayName).toBe('User fhandler');
  });

  it('shows a submitter only the results of its own scope', async () => {
    const body = (await view('facme')).json();
    expect(body.results.map((r: { resultId: string }) => r.resultId)).toEqual([ids.acmeNew, ids.acmeOld]);
    expect(JSON.stringify(body)).not.toContain('Globex');
  });

  it('refuses a user without file:view:markAsDownloaded', async () => {
    expect((await view('fmanager')).statusCode).toBe(403);
    expect((await mark('fmanager', ids.acmeOld)).statusCode).toBe(403);
  });
});

describe('marking a result downloaded', () => {
  it('records who and when once, then refuses a second time', async () => {
    const res = await mark('facme', ids.acmeOld);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().downloadedBy).toBe('facme');
    const row = await t.db
      .selectFrom('request_results')
      .select(['downloaded_at', 'downloaded_by'])
      .where('id', '=', ids.acmeOld)
      .executeTakeFirstOrThrow();
    expect(row.downloaded_by).toBe('facme');
    expect(row.downloaded_at).toBeInstanceOf(Date);
    expect((await mark('facme', ids.acmeOld)).statusCode).toBe(409);
    const list = (await view('facme')).json();
    expect(list.results.map((r: { resultId: string }) => r.resultId)).toEqual([ids.acmeNew]);
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
