import fs from 'node:fs';
import path from 'node:path';
import { DE_IDENTIFIED } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRetention } from '../src/features/retention/index.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { getReport } from './support/reports.js';
import { insertTestRequest } from './support/requests.js';
import { monthsAgo, requestFile, setRetention } from './support/retention.js';

// Retention (issue 36): Acme keeps files 12 months and personal data 24 months after closing. A run
// removes exactly what is due, skips held requests, leaves reports' totals as they were, and does
// nothing more when run again or twice at once.

let t: TestContext;
const cookies: Record<string, string> = {};
type Name = 'both' | 'files' | 'recent' | 'held' | 'open' | 'globex';
const n = {} as Record<Name, string>;
const keys = {} as Record<Name, string[]>;
const acme = '/org/acme/';

const stored = (key: string) =>
  fs.existsSync(path.join(t.config.files.dir, key.slice(0, 2), key.slice(2, 4), key));
const row = (requestNumber: string) =>
  t.db
    .selectFrom('requests')
    .selectAll()
    .where('request_number', '=', requestNumber)
    .executeTakeFirstOrThrow();
const ctx = () => ({ db: t.db, storage: createLocalStorage(t.config.files.dir) });

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'acmeadmin', scope: acme, roles: [{ role: 'c:roles:admin', scope: acme }] });
  await createUser(t.db, {
    id: 'globexadmin',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
  });
  await createUser(t.db, { id: 'manager', scope: acme, roles: [{ role: 'c:roles:manager', scope: acme }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  for (const who of ['root', 'acmeadmin', 'globexadmin', 'manager', 'handler'])
    cookies[who] = await signIn(t.app, who);
  await setRetention(t, acme, { deleteFilesAfterMonths: 12, deIdentifyAfterMonths: 24 });
  const closed = (months: number, more: object = {}) =>
    insertTestRequest(t.db, {
      scope: acme,
      status: 'closed',
      submittedAt: monthsAgo(months + 1),
      closedAt: monthsAgo(months),
      applicant: {
        name: 'Jane Citizen',
        dateOfBirth: '1980-04-01',
        reference1: 'POL-1',
        address: '1 Main St',
      },
      content: { additionalInstructions: 'Jane has asthma', additionalQuestions: [{ text: 'Since 2001?' }] },
      referenceNumber: 'AC-77',
      ...more,
    });
  n.both = await closed(30);
  n.files = await closed(18);
  n.recent = await closed(6);
  n.held = await closed(30);
  n.open = await insertTestRequest(t.db, { scope: acme, status: 'open', submittedAt: monthsAgo(40) });
  n.globex = await insertTestRequest(t.db, {
    scope: '/org/globex/',
    status: 'closed',
    closedAt: monthsAgo(40),
  });
  await t.db
    .updateTable('requests')
    .set({ legal_hold_at: new Date(), legal_hold_by: 'manager', legal_hold_reason: 'Litigation' })
    .where('request_number', '=', n.held)
    .execute();
  const counts: [Name, number][] = [
    ['both', 2],
    ['files', 1],
    ['recent', 1],
    ['held', 1],
    ['open', 1],
    ['globex', 1],
  ];
  for (const [name, count] of counts) {
    keys[name] = [];
    for (let i = 0; i < count; i++)
      keys[name].push(await requestFile(t, cookies.handler as string, n[name], `Jane Citizen ${i}.pdf`));
  }
  // The 18-month request's file is a result: its page lists the result with the file removed.
  await t.db
    .insertInto('request_results')
    .values({ request_number: n.files, file_key: keys.files[0] as string, created_at: monthsAgo(19) })
    .execute();
  await t.db
    .insertInto('request_invoices')
    .values({
      request_number: n.files,
      file_key: keys.files[0] as string,
      created_at: monthsAgo(19),
    } as never)
    .execute();
  await t.db
    .insertInto('events')
    .values({
      type: 'request.partEdited',
      aggregate_type: 'request',
      aggregate_id: n.both,
      actor: 'handler',
      payload: JSON.stringify({
        summary: 'Applicant edited: name.',
        changes: { name: { from: 'Jane Smith', to: 'Jane Citizen' } },
      }),
    })
    .execute();
});
afterAll(() => t.close());

function get(url: string, who = 'acmeadmin') {
  return t.app.inject({ url, headers: { ...XHR, cookie: cookies[who] as string } });
}
function post(url: string, payload: object, who = 'acmeadmin') {
  return t.app.inject({ method: 'POST', url, headers: { ...XHR, cookie: cookies[who] as string }, payload });
}

describe('retention', () => {
  it('shows what the next run will remove, per scope, before it runs', async () => {
    const res = await get('/admin/retention');
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.due).toEqual([
      {
        scope: acme,
        deleteFilesAfterMonths: 12,
        deIdentifyAfterMonths: 24,
        requestsWithFilesDue: 2,
        filesDue: 3,
        requestsToDeIdentify: 1,
        held: 1,
      },
    ]);
    expect(view.totals).toEqual({ requestsWithFilesDue: 2, filesDue: 3, requestsToDeIdentify: 1, held: 1 });
    // Globex has no retention: nothing of it is due, and its admin sees nothing of Acme.
    expect((await get('/admin/retention', 'globexadmin')).json().due).toEqual([]);
  });

  it('is for administrators only', async () => {
    for (const who of ['handler', 'manager']) {
      expect((await get('/admin/retention', who)).statusCode).toBe(403);
      expect((await post('/admin/retention/run', {}, who)).statusCode).toBe(403);
      expect((await get('/admin/retention/erasure', who)).statusCode).toBe(403);
    }
  });

  it('removes exactly the files and personal data due, skips held requests, and keeps report totals', async () => {
    const period = { from: '2000-01-01', to: new Date().toISOString().slice(0, 10) };
    const report = () => getReport(t, cookies.root as string, '/reports/requests/closed', period);
    const before = (await report()).answer;
    // Acme's four closed requests are all in the period, the de-identified one among them.
    expect(before.rows.find((r) => r.scope === acme)?.requests).toBe(4);
    // Two runs at once (two instances): together they do the work once.
    const [a, b] = await Promise.all([
      runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] }),
      runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] }),
    ]);
    expect(a.filesRemoved + b.filesRemoved).toBe(3);
    expect(a.deIdentified + b.deIdentified).toBe(1);
    // One run may remove a request's files and the other de-identify it: each lists it then.
    expect([...new Set([...a.requestNumbers, ...b.requestNumbers])].sort()).toEqual([n.both, n.files].sort());
    for (const key of [...(keys.both ?? []), ...(keys.files ?? [])]) expect(stored(key)).toBe(false);
    for (const name of ['recent', 'held', 'open', 'globex'] as const)
      for (const key of keys[name] ?? []) expect(stored(key), name).toBe(true);
    const files = await t.db
      .selectFrom('files')
      .select(['key', 'removed_at', 'name'])
      .where('owner_id', '=', n.both)
      .execute();
    expect(files.every((f) => f.removed_at !== null)).toBe(true);
    expect(files.map((f) => f.name)).toEqual(['de-identified.pdf', 'de-identified.pdf']);

    const both = await row(n.both);
    expect(both.applicant_name).toBe(DE_IDENTIFIED);
    expect(both.applicant_date_of_birth).toBeNull();
    expect(both.applicant).toMatchObject({
      name: DE_IDENTIFIED,
      dateOfBirth: null,
      address: null,
      reference1: DE_IDENTIFIED,
    });
    expect(both.content).toMatchObject({
      additionalInstructions: DE_IDENTIFIED,
      additionalQuestions: [{ text: DE_IDENTIFIED }],
    });
    expect(both.reference_number).toBe(DE_IDENTIFIED);
    expect(both.closed_at).not.toBeNull();
    const history = await t.db
      .selectFrom('events')
      .select('payload')
      .where('aggregate_id', '=', n.both)
      .execute();
    expect(JSON.stringify(history)).not.toContain('Jane Citizen');
    // Only files were due on the 18-month one; the held one is as it was.
    expect((await row(n.files)).applicant_name).toBe('Jane Citizen');
    expect((await row(n.files)).files_removed_at).not.toBeNull();
    const held = await row(n.held);
    expect([held.applicant_name, held.files_removed_at, held.de_identified_at]).toEqual([
      'Jane Citizen',
      null,
      null,
    ]);

    const page = await get(`/requests/${n.files}`, 'root');
    expect(page.json().results[0].fileRemovedAt).toEqual(expect.any(String));
    expect(page.json().invoices[0].fileRemovedAt).toEqual(expect.any(String));
    expect(page.json().retention.filesRemovedAt).toEqual(expect.any(String));
    // The file's row stays and says it is gone.
    const gone = await get(`/files/${keys.both?.[0]}`, 'root');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('The file was removed under the retention rules.');

    expect((await report()).answer).toEqual(before);

    // A third run finds nothing; the preview says so.
    const again = await runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] });
    expect([again.filesRemoved, again.deIdentified]).toEqual([0, 0]);
    expect((await get('/admin/retention')).json().totals).toEqual({
      requestsWithFilesDue: 0,
      filesDue: 0,
      requestsToDeIdentify: 0,
      held: 1,
    });
    const runs = await t.db.selectFrom('retention_runs').selectAll().orderBy('started_at').execute();
    expect(runs).toHaveLength(3);
    expect(runs.reduce((s, r) => s + r.files_removed, 0)).toBe(3);
    expect(JSON.stringify(runs)).not.toContain('Jane');
  });

  it('runs now from the page, in the administrator scopes, and lists the run', async () => {
    await t.db
      .updateTable('requests')
      .set({ closed_at: monthsAgo(13) })
      .where('request_number', '=', n.recent)
      .execute();
    const globex = await post('/admin/retention/run', {}, 'globexadmin');
    expect(globex.statusCode).toBe(200);
    expect((await row(n.recent)).files_removed_at).toBeNull();
    const res = await post('/admin/retention/run', {});
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view.runs[0]).toMatchObject({
      kind: 'manual',
      actorName: 'User acmeadmin',
      filesRemoved: 1,
      requestNumbers: [n.recent],
    });
    expect(stored(keys.recent?.[0] as string)).toBe(false);
    // Globex's admin does not see Acme's run (its request numbers).
    const globexRuns = (await get('/admin/retention', 'globexadmin')).json().runs;
    expect(
      globexRuns.some((r: { requestNumbers: string[] }) => r.requestNumbers.includes(n.recent as string)),
    ).toBe(false);
  });
});

describe('legal hold', () => {
  const action = (name: string, body: object, who = 'manager') =>
    post(`/requests/${n.recent}/actions/${name}`, body, who);

  it('is placed by a manager with a reason, recorded, and removed', async () => {
    expect((await action('placeLegalHold', {})).statusCode).toBe(400);
    expect((await action('placeLegalHold', { reason: '  ' })).json().fields).toEqual({
      reason: 'This field is required.',
    });
    expect((await action('placeLegalHold', { reason: 'Court order' }, 'handler')).statusCode).toBe(403);
    const placed = await action('placeLegalHold', { reason: 'Court order 12/2026' });
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().retention.legalHold).toMatchObject({ reason: 'Court order 12/2026' });
    expect(placed.json().actions).toContain('removeLegalHold');
    expect((await action('placeLegalHold', { reason: 'again' })).statusCode).toBe(409);
    const history = await t.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('aggregate_id', '=', n.recent)
      .execute();
    expect(history).toContainEqual({ type: 'request.legalHoldPlaced', actor: 'manager' });
    const removed = await action('removeLegalHold', {});
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json().retention.legalHold).toBeUndefined();
  });
});
