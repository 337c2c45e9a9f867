import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueWindow } from '../src/features/dashboard/service.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// The dashboard tiles through GET /dashboard/{bind}: what each user may see (another scope's data
// never in a row or a count), the filters, paging and bad input.

let t: TestContext;
const cookies: Record<string, string> = {};
const n: Record<string, string> = {};
const HOUR = 3_600_000;

// Sydney's end of today, as the server computes it (no holidays matter for "today").
const endOfToday = () => dueWindow('today', new Date(), []).before;

async function task(
  type: string,
  requestNumber: string | null,
  scope: string,
  dueAt: Date,
  messageId?: string,
) {
  await t.db
    .insertInto('tasks')
    .values({
      type,
      subject: `${type} task`,
      request_number: requestNumber,
      message_id: messageId ?? null,
      scope,
      due_at: dueAt,
    })
    .execute();
}

async function get(user: string, path: string) {
  return t.app.inject({ method: 'GET', url: path, headers: { ...XHR, cookie: cookies[user] } });
}

async function tile(user: string, query: string) {
  const res = await get(user, `/dashboard/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'dhandler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'dacme',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'dmanager',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:manager', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'dacme2',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'dglobex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  for (const u of ['dhandler', 'dacme', 'dmanager', 'dglobex']) cookies[u] = await signIn(t.app, u);

  n.acmeMine = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open', submittedBy: 'dacme' });
  n.acmeOther = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    status: 'open',
    submittedBy: 'dacme2',
    submittedAt: new Date(Date.now() - 24 * HOUR),
  });
  n.acmeClosed = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    status: 'closed',
    submittedBy: 'dacme',
  });
  n.globex = await insertTestRequest(t.db, {
    scope: '/org/globex/',
    status: 'open',
    submittedBy: 'dglobex',
    applicant: { name: 'Globex Secret' },
  });
  n.globexClosed = await insertTestRequest(t.db, { scope: '/org/globex/', status: 'closed' });

  const end = endOfToday().getTime();
  await task('followUp', n.acmeMine, '/org/acme/', new Date(end - 60_000)); // due today, one minute before midnight
  await task('issueRequest', n.acmeOther, '/org/acme/', new Date(end + 60_000)); // one minute after: not today
  await task('senderActionRequired', n.acmeMine, '/org/acme/', new Date(end - HOUR));
  await task('followUp', n.globex, '/org/globex/', new Date(end - 2 * HOUR));
  await task('classifyIncomingMessage', null, '/', new Date(end - 3 * HOUR), 'msg-1@example');

  await t.db
    .insertInto('correspondence')
    .values([
      {
        request_number: n.acmeMine,
        kind: 'note',
        body: JSON.stringify({ type: 'text', content: 'Acme note' }),
      },
      {
        request_number: n.globex,
        kind: 'issuedRequest',
        subject: 'Globex letter',
        body: JSON.stringify({ type: 'text', content: 'Globex' }),
      },
    ])
    .execute();
  await t.db
    .insertInto('request_results')
    .values([
      { request_number: n.acmeMine, file_key: 'k-acme' },
      { request_number: n.globex, file_key: 'k-globex', quality_assured_at: new Date() },
    ])
    .execute();
});

afterAll(async () => {
  await t?.close();
});

const counts = (answer: { aggregations: { key: string; count: number }[] }) =>
  Object.fromEntries(answer.aggregations.map((a) => [a.key, a.count]));

describe('what each user sees', () => {
  it('shows the handler every scope, and sender action required in neither the list nor its counts', async () => {
    const answer = await tile('dhandler', 'activeTasks');
    expect(counts(answer)).toEqual({
      issueRequest: 1,
      followUp: 2,
      classifyIncomingMessage: 1,
    });
    expect(answer.total).toBe(4);
    expect(answer.items.map((i: { type: string }) => i.type)).not.toContain('senderActionRequired');
    const message = answer.items.find((i: { requestNumber: string | null }) => i.requestNumber === null);
    expect(message.messageId).toBe('msg-1@example');
    expect(answer.selectableOwners.map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining(['dacme', 'dacme2', 'dglobex']),
    );
  });

  it('never shows an Acme submitter a Globex row or count, nor the inbox tasks', async () => {
    // The sender side sees its own tasks only, not the staff's work (issue 23 item 3).
    const tasks = await tile('dacme', 'activeTasks?filter.taskType=all');
    expect(counts(tasks)).toEqual({ senderActionRequired: 1 });
    expect(tasks.items.every((i: { requestNumber: string }) => i.requestNumber.startsWith('TST'))).toBe(true);
    expect(tasks.items.map((i: { requestNumber: string }) => i.requestNumber)).not.toContain(n.globex);

    const open = await tile('dacme', 'openRequests');
    expect(counts(open)).toEqual({ '/org/acme/': 2 });
    const closed = await tile('dacme', 'closedRequests');
    expect(closed.items.map((i: { requestNumber: string }) => i.requestNumber)).toEqual([n.acmeClosed]);
    expect(counts(closed)).toEqual({ '/org/acme/': 1 });

    const letters = await tile('dacme', 'correspondence');
    expect(counts(letters)).toEqual({ note: 1 });
    expect(JSON.stringify(letters)).not.toContain('Globex');
    // Acme's one result awaits quality assurance: it does not reach the sender side yet, nor its count.
    const results = await tile('dacme', 'results');
    expect(counts(results)).toEqual({});
    expect(results.items).toEqual([]);
    // Staff see it (the handler at / sees both organisations' results).
    expect(counts(await tile('dhandler', 'results'))).toEqual({ awaitingQa: 1, qualityAssured: 1 });
    expect(JSON.stringify(results)).not.toContain('Globex');
    expect(tasks.selectableOwners.map((o: { id: string }) => o.id).sort()).toEqual(['dacme', 'dacme2']);
  });

  it('shows the Globex submitter only Globex', async () => {
    const open = await tile('dglobex', 'openRequests');
    expect(open.items.map((i: { requestNumber: string }) => i.requestNumber)).toEqual([n.globex]);
    expect(counts(await tile('dglobex', 'results'))).toEqual({ qualityAssured: 1 });
    // Globex's one task is staff work (a follow-up): not the sender's to see.
    expect(counts(await tile('dglobex', 'activeTasks'))).toEqual({});
    expect(counts(await tile('dhandler', 'activeTasks?filter.key=followUp'))).toMatchObject({ followUp: 2 });
  });

  it('refuses an anonymous caller', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/dashboard/activeTasks', headers: XHR });
    expect(res.statusCode).toBe(401);
  });
});

describe('filters', () => {
  it('keeps to the end of the Sydney day for due today, overdue included', async () => {
    const answer = await tile('dmanager', 'activeTasks?due=today');
    expect(answer.items.map((i: { type: string }) => i.type)).toEqual(['followUp']);
    expect(counts(answer)).toEqual({ followUp: 1 });
    const tomorrow = await tile('dmanager', 'activeTasks?due=tomorrow');
    expect(tomorrow.items.map((i: { requestNumber: string }) => i.requestNumber)).toEqual([n.acmeOther]);
  });

  it('moves tomorrow over a weekend and a public holiday, by the Sydney calendar', () => {
    // 14:30 UTC on Thursday 3 Dec 2026 is already Friday 01:30 in Sydney (UTC+11).
    const now = new Date('2026-12-03T14:30:00Z');
    expect(dueWindow('today', now, []).before.toISOString()).toBe('2026-12-04T13:00:00.000Z');
    const plain = dueWindow('tomorrow', now, []);
    expect(plain.from?.toISOString()).toBe('2026-12-04T13:00:00.000Z');
    expect(plain.before.toISOString()).toBe('2026-12-07T13:00:00.000Z'); // through Monday
    const holiday = dueWindow('tomorrow', now, ['2026-12-07']);
    expect(holiday.before.toISOString()).toBe('2026-12-08T13:00:00.000Z'); // Monday off: through Tuesday
    expect(dueWindow('dayAfterTomorrow', now, ['2026-12-07']).before.toISOString()).toBe(
      '2026-12-09T13:00:00.000Z',
    );
  });

  it('shows only my requests with owner mine, and another owner by id', async () => {
    const mine = await tile('dacme', 'openRequests?owner=mine');
    expect(mine.items.map((i: { requestNumber: string }) => i.requestNumber)).toEqual([n.acmeMine]);
    const tasks = await tile('dacme', 'activeTasks?owner=mine&filter.taskType=all');
    expect(counts(tasks)).toEqual({ senderActionRequired: 1 });
    const other = await tile('dacme', 'openRequests?owner=dacme2');
    expect(other.items.map((i: { requestNumber: string }) => i.requestNumber)).toEqual([n.acmeOther]);
  });

  it('applies a key of the counts table and leaves the other keys in the table', async () => {
    const sar = await tile('dhandler', 'activeTasks?filter.taskType=all&filter.key=senderActionRequired');
    expect(sar.items.map((i: { type: string }) => i.type)).toEqual(['senderActionRequired']);
    expect(sar.total).toBe(1);
    expect(sar.aggregations.length).toBe(4);
    // The key narrows the type filter: the sender's tasks are not in the list without it, so the
    // key lists none and counts none.
    const hidden = await tile('dhandler', 'activeTasks?filter.key=senderActionRequired');
    expect(hidden.items).toEqual([]);
    expect(hidden.total).toBe(0);
    expect(counts(hidden).senderActionRequired).toBe(0);
    const acme = await tile('dhandler', 'openRequests?filter.key=/org/acme/');
    expect(acme.total).toBe(2);
    expect(acme.items.every((i: { scope: string }) => i.scope === '/org/acme/')).toBe(true);
    const typed = await tile('dhandler', 'activeTasks?filter.taskType=followUp');
    expect(typed.total).toBe(2);
  });

  it('filters by request status', async () => {
    const answer = await tile('dhandler', 'openRequests?filter.requestStatus=submitted');
    expect(answer.total).toBe(0);
    expect(answer.items).toEqual([]);
  });
});

describe('paging and bad input', () => {
  it('pages a tile', async () => {
    const first = await tile('dhandler', 'openRequests?pageSize=1');
    const second = await tile('dhandler', 'openRequests?pageSize=1&pageOffset=1');
    expect(first.total).toBe(3);
    expect(first.items.length).toBe(1);
    expect(second.paging).toEqual({ offset: 1, size: 1 });
    expect(second.items[0].requestNumber).not.toBe(first.items[0].requestNumber);
  });

  it('answers 400 with a message per field', async () => {
    for (const query of [
      'activeTasks?pageSize=0',
      'activeTasks?pageOffset=-1',
      'activeTasks?due=yesterday',
      'activeTasks?filter.taskType=nothing',
      'openRequests?filter.requestStatus=lost',
      'nowhere',
    ]) {
      const res = await get('dhandler', `/dashboard/${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    const mine = await get('dhandler', '/dashboard/openRequests?owner=mine');
    expect(mine.statusCode).toBe(400);
    expect(mine.json().fields.owner).toBeTruthy();
    const stranger = await get('dacme', '/dashboard/openRequests?owner=dglobex');
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().fields.owner).toBe('Choose an owner from the list.');
  });

  it('serves the page view', async () => {
    const res = await get('dacme', '/dashboard');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ $type: 'dashboard', canShowMine: true, countCap: 1000 });
    expect((await get('dhandler', '/dashboard')).json().canShowMine).toBe(false);
  });
});
