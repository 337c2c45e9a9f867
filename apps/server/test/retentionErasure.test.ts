import fs from 'node:fs';
import path from 'node:path';
import { DE_IDENTIFIED } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { requestFile } from './support/retention.js';

// Erasure on request (issue 36): an administrator finds an applicant across the requests of its
// scopes and erases them at once; open and held requests are left as they were and said so;
// another scope's administrator finds and erases nothing; bad input is refused field by field.

let t: TestContext;
const cookies: Record<string, string> = {};
const acme = '/org/acme/';
const sam = { name: 'Sam Erasable', dateOfBirth: '1975-02-03', reference1: 'CLM-9' };
let closed: string;
let open: string;
let held: string;
let namesake: string;
let closedKey: string;

const stored = (key: string) =>
  fs.existsSync(path.join(t.config.files.dir, key.slice(0, 2), key.slice(2, 4), key));
const row = (requestNumber: string) =>
  t.db
    .selectFrom('requests')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .executeTakeFirstOrThrow();
function call(method: 'GET' | 'POST', url: string, who: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { ...XHR, cookie: cookies[who] as string },
    ...(payload ? { payload } : {}),
  });
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'acmeadmin', scope: acme, roles: [{ role: 'c:roles:admin', scope: acme }] });
  await createUser(t.db, {
    id: 'globexadmin',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  for (const who of ['acmeadmin', 'globexadmin', 'handler']) cookies[who] = await signIn(t.app, who);
  closed = await insertTestRequest(t.db, { scope: acme, status: 'closed', applicant: sam });
  open = await insertTestRequest(t.db, { scope: acme, status: 'open', applicant: sam });
  held = await insertTestRequest(t.db, { scope: acme, status: 'closed', applicant: sam });
  namesake = await insertTestRequest(t.db, {
    scope: acme,
    status: 'closed',
    applicant: { ...sam, dateOfBirth: '1990-01-01', reference1: 'OTHER' },
  });
  await t.db
    .updateTable('requests')
    .set({ legal_hold_at: new Date(), legal_hold_by: 'acmeadmin', legal_hold_reason: 'Litigation' })
    .where('request_number', '=', held)
    .execute();
  closedKey = await requestFile(t, cookies.handler as string, closed);
});
afterAll(() => t.close());

describe('erasure on request', () => {
  it('finds the applicant by name and date of birth, and says which requests it will leave', async () => {
    const res = await call(
      'GET',
      `/admin/retention/erasure?name=sam%20erasable&dateOfBirth=${sam.dateOfBirth}`,
      'acmeadmin',
    );
    expect(res.statusCode, res.body).toBe(200);
    const matches = res.json().matches as { requestNumber: string; leftBecause: string | null }[];
    expect(Object.fromEntries(matches.map((m) => [m.requestNumber, m.leftBecause]))).toEqual({
      [closed]: null,
      [open]: 'open',
      [held]: 'legalHold',
    });
    // By reference too; the namesake (another date of birth and reference) is not found.
    const byRef = await call(
      'GET',
      '/admin/retention/erasure?name=Sam%20Erasable&reference=clm-9',
      'acmeadmin',
    );
    expect(
      byRef
        .json()
        .matches.map((m: { requestNumber: string }) => m.requestNumber)
        .sort(),
    ).toEqual([closed, open, held].sort());
  });

  it("is refused to another scope's administrator and to non-administrators", async () => {
    const globex = await call(
      'GET',
      `/admin/retention/erasure?name=Sam%20Erasable&dateOfBirth=${sam.dateOfBirth}`,
      'globexadmin',
    );
    expect(globex.json().matches).toEqual([]);
    const erased = await call('POST', '/admin/retention/erasure', 'globexadmin', {
      ...sam,
      reference: sam.reference1,
      requestedBy: 'Sam',
      reason: 'Asked by letter',
    });
    expect(erased.statusCode).toBe(200);
    expect(erased.json().done).toMatchObject({ requestNumbers: [], leftRequests: [], filesRemoved: 0 });
    expect((await row(closed)).applicant_name).toBe('Sam Erasable');
    expect(stored(closedKey)).toBe(true);
    expect((await call('GET', '/admin/retention/erasure', 'handler')).statusCode).toBe(403);
    expect((await call('POST', '/admin/retention/erasure', 'handler', { name: 'x' })).statusCode).toBe(403);
  });

  it('refuses bad input field by field, erasing nothing', async () => {
    const empty = await call('POST', '/admin/retention/erasure', 'acmeadmin', {});
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fields).sort()).toEqual(['name', 'reason', 'requestedBy']);
    const nameOnly = await call('POST', '/admin/retention/erasure', 'acmeadmin', {
      name: sam.name,
      requestedBy: 'Sam',
      reason: 'Asked',
    });
    expect(nameOnly.statusCode).toBe(400);
    expect(nameOnly.json().fields.dateOfBirth).toBe(
      "Enter the date of birth or a reference, so only this person's requests are erased.",
    );
    const badDate = await call(
      'GET',
      '/admin/retention/erasure?name=Sam&dateOfBirth=1975-02-30',
      'acmeadmin',
    );
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().fields).toEqual({ dateOfBirth: 'Enter a valid date.' });
    expect((await row(closed)).applicant_name).toBe('Sam Erasable');
  });

  it('erases the closed, unheld requests at once, and leaves open and held ones, saying why', async () => {
    const heldBefore = await row(held);
    const openBefore = await row(open);
    const res = await call('POST', '/admin/retention/erasure', 'acmeadmin', {
      name: sam.name,
      dateOfBirth: sam.dateOfBirth,
      requestedBy: 'Sam Erasable, by letter of 1 December',
      reason: 'Right to erasure',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().done).toMatchObject({
      kind: 'erasure',
      actorName: 'User acmeadmin',
      requestedBy: 'Sam Erasable, by letter of 1 December',
      reason: 'Right to erasure',
      filesRemoved: 1,
      requestsDeIdentified: 1,
      requestNumbers: [closed],
    });
    expect(res.json().done.leftRequests).toEqual(
      expect.arrayContaining([
        { requestNumber: open, reason: 'open' },
        { requestNumber: held, reason: 'legalHold' },
      ]),
    );
    const erased = await row(closed);
    expect(erased.applicant_name).toBe(DE_IDENTIFIED);
    expect(erased.de_identified_at).not.toBeNull();
    expect(erased.files_removed_at).not.toBeNull();
    expect(stored(closedKey)).toBe(false);
    expect(await row(held)).toEqual(heldBefore);
    expect(await row(open)).toEqual(openBefore);
    expect((await row(namesake)).applicant_name).toBe('Sam Erasable');
    const history = await t.db
      .selectFrom('events')
      .select('type')
      .where('aggregate_id', '=', closed)
      .execute();
    expect(history.map((h) => h.type).sort()).toEqual(['request.deIdentified', 'request.filesRemoved']);
  });
});
