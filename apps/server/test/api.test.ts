import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { API_SCOPES, type RouteMethod } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { API_ENDPOINTS } from '../src/features/api/index.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createTestContext, createUser, PASSWORD, signIn, type TestContext, XHR } from './helpers.js';
import {
  addApiKey,
  apiToken,
  bearer,
  hmacToken,
  rawRs256Token,
  rsaPair,
  type TestApiKey,
  unsignedToken,
} from './support/apiKeys.js';
import { insertTestRequest } from './support/requests.js';
import { PDF } from './support/resultsInvoices.js';

// The public API end to end through the real app: bearer tokens of API keys stored as the
// configuration editor stores them, every endpoint with a key that may and one that may not, every
// kind of bad token, replay, the rate limit, scope isolation and the OpenAPI document.

const ACME = '/org/acme/';
const GLOBEX = '/org/globex/';

let t: TestContext;
let acme: TestApiKey;
let none: TestApiKey;
let globex: TestApiKey;
let globexRequest: string;
let openRequest: string;

type Method = RouteMethod;

async function call(key: TestApiKey, method: Method, url: string, payload?: unknown, app?: FastifyInstance) {
  return (app ?? t.app).inject({
    method,
    url,
    headers: bearer(await apiToken(key)),
    payload: payload as object,
  });
}

/** Announces and uploads a PDF through the API; answers its key. */
async function uploadPdf(key: TestApiKey, name = 'document.pdf'): Promise<string> {
  const res = await call(key, 'POST', '/api/v1/files', {
    name,
    contentType: 'application/pdf',
    contentLength: PDF.length,
  });
  expect(res.statusCode).toBe(201);
  const { key: fileKey, uploadUrl, headers } = res.json();
  const target = new URL(uploadUrl);
  expect(target.protocol).toMatch(/^https?:$/);
  const put = await t.app.inject({
    method: 'PUT',
    url: `${target.pathname}${target.search}`,
    headers,
    payload: PDF,
  });
  expect(put.statusCode).toBe(200);
  return fileKey;
}

function submission(authorityKey: string, organization = ACME) {
  return {
    sender: { organization },
    applicant: {
      name: 'Jane Citizen',
      dateOfBirth: '1980-02-29',
      country: 'AU',
      authority: { key: authorityKey, name: 'authority.pdf' },
      reference1: 'JC-REF-1',
    },
    recipient: {
      name: 'Northside Clinic',
      phone: '02 9000 1111',
      email: 'records@northside.example',
      tags: { kind: 'hospital' },
    },
    content: {
      itemTypes: [
        {
          id: 'itemGeneralPractice',
          smartFormAnswers: { consultationNotes: 'yes' },
          submitterSuppliedFields: { patientId: 'P-77' },
        },
      ],
      additionalQuestions: [{ text: 'Any imaging?' }],
    },
  };
}

const counts = async () => ({
  payees: (await t.db.selectFrom('payees').select('id').execute()).length,
  tokens: (await t.db.selectFrom('api_token_ids').select('jti').execute()).length,
  rates: (await t.db.selectFrom('rate_events').select('id').where('bucket', 'like', 'api.%').execute())
    .length,
});

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  invalidateConfigurationCache(t.db);
  acme = await addApiKey(t.db, { kid: 'acmeAll', scopePath: ACME, apiScopes: [...API_SCOPES] });
  none = await addApiKey(t.db, { kid: 'acmeNone', scopePath: ACME, apiScopes: [] });
  globex = await addApiKey(t.db, { kid: 'globexAll', scopePath: GLOBEX, apiScopes: [...API_SCOPES] });
  await createUser(t.db, { id: 'sam', scope: ACME, roles: [{ role: 'c:roles:submitter', scope: ACME }] });
  await createUser(t.db, {
    id: 'gale',
    scope: GLOBEX,
    roles: [{ role: 'c:roles:submitter', scope: GLOBEX }],
  });
  await createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  globexRequest = await insertTestRequest(t.db, { scope: GLOBEX, prefix: 'GLX' });
  openRequest = await insertTestRequest(t.db, { scope: ACME, prefix: 'ACM', status: 'open' });
});

afterAll(async () => {
  await t.close();
});

describe('a key with the API scopes', () => {
  let requestNumber = '';
  let resultId = '';
  let resultFile = '';

  it('submits a request with a file, as the key', async () => {
    const authority = await uploadPdf(acme, 'authority.pdf');
    const res = await call(acme, 'POST', '/api/v1/requests', submission(authority));
    expect(res.statusCode, res.body).toBe(201);
    requestNumber = res.json().requestNumber;
    expect(res.json()).toEqual({ requestNumber, status: 'submitted' });
    expect(res.headers.location).toBe(`/api/v1/requests/${requestNumber}`);
    const row = await t.db
      .selectFrom('requests')
      .select(['scope', 'submitted_by'])
      .where('request_number', '=', requestNumber)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ scope: ACME, submitted_by: 'api:orgAcme:acmeAll' });
    const file = await t.db
      .selectFrom('files')
      .selectAll()
      .where('key', '=', authority)
      .executeTakeFirstOrThrow();
    expect(file).toMatchObject({ owner_type: 'request', owner_id: requestNumber });
  });

  it('gets the same field errors as the wizard', async () => {
    const res = await call(acme, 'POST', '/api/v1/requests', {
      ...submission('nokeynokeynokey'),
      applicant: { name: '' },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).not.toHaveLength(0);
  });

  it('may not submit for an organisation outside its scope', async () => {
    const authority = await uploadPdf(acme);
    const res = await call(acme, 'POST', '/api/v1/requests', submission(authority, GLOBEX));
    expect(res.statusCode).toBe(403);
  });

  it('reads the request and its status', async () => {
    const res = await call(acme, 'GET', `/api/v1/requests/${requestNumber}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      requestNumber,
      status: 'submitted',
      scope: ACME,
      applicant: { name: 'Jane Citizen' },
      submittedByDisplayName: 'API key Key acmeAll',
    });
  });

  it('adds a result, lists it and downloads its file', async () => {
    resultFile = await uploadPdf(acme, 'records.pdf');
    const added = await call(acme, 'POST', `/api/v1/requests/${requestNumber}/results`, {
      file: { key: resultFile },
      tags: { documentType: 'Medical records' },
    });
    expect(added.statusCode, added.body).toBe(201);
    resultId = added.json().resultId;
    const list = await call(acme, 'GET', `/api/v1/requests/${requestNumber}/results`);
    expect(list.statusCode).toBe(200);
    expect(list.json().results).toEqual([
      expect.objectContaining({ resultId, file: { key: resultFile, name: 'records.pdf' } }),
    ]);
    const file = await call(acme, 'GET', `/api/v1/requests/${requestNumber}/results/${resultId}/file`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('attachment; filename="records.pdf"');
    expect(file.rawPayload.equals(PDF)).toBe(true);
    const bad = await call(acme, 'POST', `/api/v1/requests/${requestNumber}/results`, {
      file: { key: await uploadPdf(acme) },
      tags: {},
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ 'tags.documentType': 'Document Type is required.' });
  });

  it("gives a sender's read-only key a result only once it is delivered", async () => {
    const reader = await addApiKey(t.db, {
      kid: 'acmeReader',
      scopePath: ACME,
      apiScopes: ['requestRead', 'requestResultRead', 'fileRead'],
    });
    const url = `/api/v1/requests/${requestNumber}/results`;
    // The result added above awaits quality assurance: staff see it, the sender's system does not.
    expect((await call(reader, 'GET', url)).json().results).toEqual([]);
    expect((await call(reader, 'GET', `${url}/${resultId}/file`)).statusCode).toBe(403);
    await t.db
      .updateTable('request_results')
      .set({ quality_assured_at: new Date() })
      .where('id', '=', resultId)
      .execute();
    expect((await call(reader, 'GET', url)).json().results).toEqual([expect.objectContaining({ resultId })]);
    expect((await call(reader, 'GET', `${url}/${resultId}/file`)).statusCode).toBe(200);
    await t.db
      .updateTable('request_results')
      .set({ quality_assured_at: null })
      .where('id', '=', resultId)
      .execute();
  });

  it('uploads an invoice and reads the invoices', async () => {
    const file = await uploadPdf(acme, 'invoice.pdf');
    const added = await call(acme, 'POST', `/api/v1/requests/${requestNumber}/invoices`, {
      file: { key: file },
      tags: { invoiceType: 'Records fee' },
      amountExclusiveTax: 10000,
      tax: 1000,
      amount: 11000,
      currency: 'AUD',
    });
    expect(added.statusCode, added.body).toBe(201);
    const list = await call(acme, 'GET', `/api/v1/requests/${requestNumber}/invoices`);
    expect(list.statusCode).toBe(200);
    expect(list.json().invoices).toEqual([
      expect.objectContaining({ invoiceId: added.json().invoiceId, amount: 11000, currency: 'AUD' }),
    ]);
    const wrongSum = await call(acme, 'POST', `/api/v1/requests/${requestNumber}/invoices`, {
      file: { key: await uploadPdf(acme) },
      tags: { invoiceType: 'Records fee' },
      amountExclusiveTax: 100,
      tax: 10,
      amount: 5,
      currency: 'AUD',
    });
    expect(wrongSum.statusCode).toBe(400);
    expect(wrongSum.json().fields).toHaveProperty('amount');
  });

  it('refuses results and invoices on a closed request (409)', async () => {
    const closed = await insertTestRequest(t.db, { scope: ACME, prefix: 'ACM', status: 'closed' });
    const res = await call(acme, 'POST', `/api/v1/requests/${closed}/invoices`, {
      file: { key: await uploadPdf(acme) },
      tags: { invoiceType: 'Records fee' },
    });
    expect(res.statusCode).toBe(409);
  });

  it('downloads a file of its request', async () => {
    const res = await call(acme, 'GET', `/api/v1/files/${resultFile}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
  });

  it('creates, reads, updates and searches payees', async () => {
    const created = await call(acme, 'POST', '/api/v1/payees', {
      name: 'Northside Billing',
      email: 'billing@northside.example',
      currency: 'AUD',
    });
    expect(created.statusCode, created.body).toBe(201);
    const payee = created.json();
    expect(payee).toMatchObject({ name: 'Northside Billing', version: 1 });
    const read = await call(acme, 'GET', `/api/v1/payees/${payee.payeeId}`);
    expect(read.json()).toEqual(payee);
    const updated = await call(acme, 'PUT', `/api/v1/payees/${payee.payeeId}`, {
      ...payee,
      name: 'Northside Accounts',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({ name: 'Northside Accounts', version: 2 });
    const stale = await call(acme, 'PUT', `/api/v1/payees/${payee.payeeId}`, { ...payee, name: 'Late' });
    expect(stale.statusCode).toBe(409);
    const invalid = await call(acme, 'POST', '/api/v1/payees', { name: '', currency: 'AUD' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fields).toHaveProperty('name');
    const found = await call(acme, 'GET', '/api/v1/payees?name=northside&pageSize=5');
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ total: 1, hits: [{ id: payee.payeeId }] });
    expect((await call(acme, 'GET', '/api/v1/payees/999999')).statusCode).toBe(404);
  });

  it("verifies a user's credentials within its scope, at the same cost for unknown users", async () => {
    const path = '/api/v1/users/credentials/verify';
    const ok = await call(acme, 'POST', path, { userId: 'sam', password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({
      valid: true,
      user: { id: 'sam', name: 'User sam', email: 'sam@test.example', scope: ACME },
    });
    const byEmail = await call(acme, 'POST', path, { userId: 'SAM@test.example', password: PASSWORD });
    expect(byEmail.json().valid).toBe(true);
    const wrong = await call(acme, 'POST', path, { userId: 'sam', password: 'wrong-password' });
    expect(wrong.json()).toEqual({ valid: false });
    const failures = await t.db
      .selectFrom('users')
      .select('failed_signins')
      .where('id', '=', 'sam')
      .executeTakeFirst();
    expect(failures?.failed_signins).toBe(1);
    const started = Date.now();
    const unknown = await call(acme, 'POST', path, { userId: 'nobody', password: 'whatever-1' });
    expect(unknown.json()).toEqual({ valid: false });
    expect(Date.now() - started).toBeGreaterThan(5);
    const otherScope = await call(acme, 'POST', path, { userId: 'gale', password: PASSWORD });
    expect(otherScope.json()).toEqual({ valid: false });
    // An account whose address was never confirmed cannot sign in, so it does not verify either.
    await t.db.updateTable('users').set({ email_confirmed_at: null }).where('id', '=', 'sam').execute();
    const unconfirmed = await call(acme, 'POST', path, { userId: 'sam', password: PASSWORD });
    expect(unconfirmed.json()).toEqual({ valid: false });
    await t.db.updateTable('users').set({ email_confirmed_at: new Date() }).where('id', '=', 'sam').execute();
    const missing = await call(acme, 'POST', path, { userId: 'sam' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('password');
  });
});

describe('a key without the API scope', () => {
  const sample = (path: string) =>
    path
      .replace(':requestNumber', openRequest)
      .replace(':resultId', randomUUID())
      .replace(':invoiceId', randomUUID())
      .replace(':key', 'abcdefghijklmnop')
      .replace(':payeeId', '1');

  it.each(API_ENDPOINTS.map((e) => [e.route.method, e.route.path, e.scope] as const))(
    '%s %s needs %s (403)',
    async (method, path, scope) => {
      const before = await counts();
      const res = await call(none, method, sample(path), method === 'GET' ? undefined : {});
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(`This API key lacks the API scope ${scope}.`);
      expect((await counts()).payees).toBe(before.payees);
    },
  );
});

describe('bad tokens', () => {
  const path = '/api/v1/payees';
  const body = { name: 'Should Not Exist', currency: 'AUD' };

  async function refused(headers: Record<string, string>) {
    const before = await counts();
    const res = await t.app.inject({ method: 'POST', url: path, headers, payload: body });
    expect(res.statusCode, res.body).toBe(401);
    expect(res.headers['www-authenticate']).toContain('Bearer');
    // Nothing changed: no payee, no token id recorded, no call counted.
    expect(await counts()).toEqual(before);
    return res.json().message as string;
  }

  it('refuses a token signed by a key under 2048 bits, saved before such keys were refused', async () => {
    const weak = await addApiKey(t.db, {
      kid: 'acmeWeak',
      scopePath: ACME,
      apiScopes: [...API_SCOPES],
      pair: generateKeyPairSync('rsa', { modulusLength: 1024 }),
    });
    expect(await refused(bearer(rawRs256Token(weak)))).toBe(
      'The API key is shorter than 2048 bits: replace it.',
    );
  });

  it('refuses a call without a token, and never takes a session cookie instead', async () => {
    expect(await refused({})).toMatch(/Authorization: Bearer/);
    const cookie = await signIn(t.app, 'admin');
    expect(await refused({ cookie, ...XHR })).toMatch(/Authorization: Bearer/);
    expect(await refused({ authorization: 'Bearer not-a-jwt' })).toMatch(/Bearer/);
  });

  it.each([
    ['expired', { expiresIn: -120 }, /expired/],
    ['issued in the future', { issuedAt: 600, expiresIn: 240 }, /future|iat/],
    ['expiring too late', { expiresIn: 3600 }, /expire within 300/],
    ['without exp', { expiresIn: null }, /exp/],
    ['without jti', { jti: null }, /jti/],
    ['for another audience', { audience: 'https://elsewhere.example/api/v1' }, /aud/],
    ['naming an unknown kid', { kid: 'noSuchKey' }, /unknown API key/],
  ])('refuses a token %s', async (_name, options, message) => {
    expect(await refused(bearer(await apiToken(acme, options)))).toMatch(message);
  });

  it('refuses a token signed by another key under the same kid', async () => {
    const impostor = { ...acme, privateKey: rsaPair().privateKey };
    expect(await refused(bearer(await apiToken(impostor)))).toMatch(/signature/);
  });

  it('refuses alg none and HS256 (even keyed with the public key)', async () => {
    expect(await refused(bearer(unsignedToken(acme.kid)))).toMatch(/RS256/);
    const publicPem = new TextEncoder().encode('the public key as an HMAC secret');
    expect(await refused(bearer(await hmacToken(acme.kid, publicPem)))).toMatch(/RS256/);
  });

  it('refuses a disabled key', async () => {
    const disabled = await addApiKey(t.db, {
      kid: 'acmeDisabled',
      scopePath: ACME,
      apiScopes: [...API_SCOPES],
      disabled: true,
    });
    expect(await refused(bearer(await apiToken(disabled)))).toMatch(/unknown API key/);
  });

  it('refuses a replayed token', async () => {
    const token = await apiToken(acme);
    const first = await t.app.inject({ url: `/api/v1/requests/${openRequest}`, headers: bearer(token) });
    expect(first.statusCode).toBe(200);
    const again = await t.app.inject({ url: `/api/v1/requests/${openRequest}`, headers: bearer(token) });
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toMatch(/already used/);
  });
});

describe('scope isolation', () => {
  it("answers 404 for another scope's request, its results, invoices and files", async () => {
    expect((await call(acme, 'GET', `/api/v1/requests/${globexRequest}`)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/api/v1/requests/${globexRequest}/results`)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/api/v1/requests/${globexRequest}/invoices`)).statusCode).toBe(404);
    const post = await call(acme, 'POST', `/api/v1/requests/${globexRequest}/invoices`, {
      file: { key: await uploadPdf(acme) },
      tags: { invoiceType: 'Records fee' },
    });
    expect(post.statusCode).toBe(404);
    // The globex key sees its own request but not Acme's.
    expect((await call(globex, 'GET', `/api/v1/requests/${globexRequest}`)).statusCode).toBe(200);
    expect((await call(globex, 'GET', `/api/v1/requests/${openRequest}`)).statusCode).toBe(404);
    const acmeFile = await uploadPdf(acme);
    expect((await call(globex, 'GET', `/api/v1/files/${acmeFile}`)).statusCode).toBe(404);
    expect((await call(acme, 'GET', `/api/v1/files/${acmeFile}`)).statusCode).toBe(200);
  });

  it('does not verify credentials of users outside the scope', async () => {
    const res = await call(globex, 'POST', '/api/v1/users/credentials/verify', {
      userId: 'sam',
      password: PASSWORD,
    });
    expect(res.json()).toEqual({ valid: false });
  });
});

describe('the rate limit', () => {
  it('answers 429 with Retry-After beyond the calls per minute of a key', async () => {
    const limited = await buildApp({
      config: { ...t.config, api: { ...t.config.api, rateLimitPerMinute: 3 } },
      db: t.db,
      live: t.live,
    });
    await limited.ready();
    try {
      const key = await addApiKey(t.db, { kid: 'acmeLimited', scopePath: ACME, apiScopes: ['requestRead'] });
      const other = await addApiKey(t.db, {
        kid: 'acmeLimited2',
        scopePath: ACME,
        apiScopes: ['requestRead'],
      });
      const url = `/api/v1/requests/${openRequest}`;
      for (let i = 0; i < 3; i++)
        expect((await call(key, 'GET', url, undefined, limited)).statusCode).toBe(200);
      const over = await call(key, 'GET', url, undefined, limited);
      expect(over.statusCode).toBe(429);
      const retryAfter = Number(over.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another key has its own budget.
      expect((await call(other, 'GET', url, undefined, limited)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
