import type { HomeSection, HomeView } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// The home page (issue 22 item 9) per role, on data of two organisations: a handler's overdue and
// due-today tasks, the requests the handler touched and unread notifications; a submitter's
// requests waiting on Acme and those changed since the last visit (never a staff task, never
// Globex's); an administrator's failed mail and unmatched inbox; Globex's submitter sees nothing of
// Acme's. Every item links to where it is worked.

let t: TestContext;
const acme = '/org/acme/';
const globex = '/org/globex/';
const hour = 3600_000;
let n: Record<'acme1' | 'acme2' | 'globex1', string>;
let cookies: Record<'handler' | 'submitter' | 'admin' | 'globexSubmitter', string>;

async function home(cookie: string): Promise<HomeView> {
  const res = await t.app.inject({ url: '/', headers: { ...XHR, cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

function sectionOf(view: HomeView, key: HomeSection['key']): HomeSection {
  const section = view.sections.find((s) => s.key === key);
  if (!section) throw new Error(`no ${key} section`);
  return section;
}

async function task(values: {
  type: string;
  scope: string;
  requestNumber?: string | null;
  messageId?: string | null;
  dueAt: Date;
  assignedTo?: string | null;
  subject?: string;
}) {
  await t.db
    .insertInto('tasks')
    .values({
      type: values.type,
      subject: values.subject ?? `${values.type} task`,
      scope: values.scope,
      request_number: values.requestNumber ?? null,
      message_id: values.messageId ?? null,
      triggered_at: new Date(Date.now() - 48 * hour),
      due_at: values.dueAt,
      assigned_to: values.assignedTo ?? null,
    })
    .execute();
}

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'hhandler', roles: [{ role: 'c:roles:handler', scope: acme }], scope: acme });
  await createUser(t.db, {
    id: 'hsubmitter',
    roles: [{ role: 'c:roles:submitter', scope: acme }],
    scope: acme,
  });
  await createUser(t.db, {
    id: 'hglobexsub',
    roles: [{ role: 'c:roles:submitter', scope: globex }],
    scope: globex,
  });
  await createUser(t.db, { id: 'hadmin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  const now = Date.now();
  n = {
    acme1: await insertTestRequest(t.db, {
      scope: acme,
      prefix: 'HOA',
      status: 'open',
      submittedBy: 'hsubmitter',
      submittedAt: new Date(now - 30 * hour),
      applicant: { name: 'Acme Applicant One' },
    }),
    acme2: await insertTestRequest(t.db, {
      scope: acme,
      prefix: 'HOB',
      status: 'open',
      submittedAt: new Date(now - 20 * hour),
      applicant: { name: 'Acme Applicant Two' },
    }),
    globex1: await insertTestRequest(t.db, {
      scope: globex,
      prefix: 'HOG',
      status: 'open',
      submittedAt: new Date(now - 10 * hour),
      applicant: { name: 'Globex Applicant' },
    }),
  };
  // The handler: one task overdue, one due later today (unless today is nearly over in Sydney:
  // then it is simply not listed as due today), one next year, and one of someone else.
  await task({
    type: 'followUp',
    scope: acme,
    requestNumber: n.acme1,
    dueAt: new Date(now - hour),
    assignedTo: 'hhandler',
  });
  await task({
    type: 'issueRequest',
    scope: acme,
    requestNumber: n.acme2,
    dueAt: new Date(now + 60_000),
    assignedTo: 'hhandler',
  });
  await task({
    type: 'followUp',
    scope: acme,
    requestNumber: n.acme2,
    dueAt: new Date(now + 365 * 24 * hour),
    assignedTo: 'hhandler',
  });
  await task({
    type: 'followUp',
    scope: acme,
    requestNumber: n.acme1,
    dueAt: new Date(now - hour),
    assignedTo: 'hadmin',
  });
  // The sender side: Acme is asked for something on acme1; a staff task of acme1 it must not see;
  // Globex is asked on globex1.
  await task({
    type: 'senderActionRequired',
    scope: acme,
    requestNumber: n.acme1,
    dueAt: new Date(now + 24 * hour),
    subject: 'Send the signed authority',
  });
  await task({
    type: 'qualityAssureResult',
    scope: acme,
    requestNumber: n.acme1,
    dueAt: new Date(now - hour),
  });
  await task({
    type: 'senderActionRequired',
    scope: globex,
    requestNumber: n.globex1,
    dueAt: new Date(now + 24 * hour),
    subject: 'Globex must answer',
  });
  // What the handler did last: an event on acme2, then one on acme1.
  for (const [number, minutes] of [
    [n.acme2, 50],
    [n.acme1, 40],
  ] as const)
    await t.db
      .insertInto('events')
      .values({
        type: 'noteAdded',
        aggregate_type: 'request',
        aggregate_id: number,
        actor: 'hhandler',
        payload: '{}',
        created_at: new Date(now - minutes * 60_000),
      })
      .execute();
  await t.db
    .insertInto('notifications')
    .values([
      { user_id: 'hhandler', type: 'taskAssigned', target: `/requests/${n.acme1}`, text: 'A task for you' },
      { user_id: 'hhandler', type: 'taskAssigned', target: `/requests/${n.acme2}`, text: 'Read already' },
    ])
    .execute();
  await t.db
    .updateTable('notifications')
    .set({ acknowledged_at: new Date() })
    .where('text', '=', 'Read already')
    .execute();
  await t.db
    .insertInto('mail_outbox')
    .values({
      to: 'nobody@bounce.example',
      subject: 'Your request was received',
      text: 'x',
      html: null,
      next_attempt_at: new Date(),
      failed_at: new Date(),
      last_error: '550 no such user',
      scope: acme,
    })
    .execute();
  cookies = {
    handler: await signIn(t.app, 'hhandler'),
    submitter: await signIn(t.app, 'hsubmitter'),
    admin: await signIn(t.app, 'hadmin'),
    globexSubmitter: await signIn(t.app, 'hglobexsub'),
  };
});
afterAll(async () => {
  await t?.close();
});

describe('the home page', () => {
  it("shows a handler's overdue and due-today tasks, the requests touched last and unread notifications", async () => {
    const view = await home(cookies.handler);
    expect(view.sections.map((s) => s.key)).toEqual([
      'overdueTasks',
      'tasksDueToday',
      'recentRequests',
      'notifications',
    ]);
    const overdue = sectionOf(view, 'overdueTasks');
    expect(overdue.count).toBe(1);
    expect(overdue.items).toEqual([
      expect.objectContaining({ requestNumber: n.acme1, kind: 'followUp', href: `/requests/${n.acme1}` }),
    ]);
    const dueToday = sectionOf(view, 'tasksDueToday');
    expect(dueToday.items.every((i) => i.requestNumber === n.acme2 && i.kind === 'issueRequest')).toBe(true);
    expect(sectionOf(view, 'recentRequests').items.map((i) => [i.requestNumber, i.title])).toEqual([
      [n.acme1, 'Acme Applicant One'],
      [n.acme2, 'Acme Applicant Two'],
    ]);
    const unread = sectionOf(view, 'notifications');
    expect(unread.count).toBe(1);
    expect(unread.items[0]).toMatchObject({ title: 'A task for you', href: `/requests/${n.acme1}` });
  });

  it('shows a submitter what waits on the organisation and what changed, never a staff task', async () => {
    const view = await home(cookies.submitter);
    expect(view.sections.map((s) => s.key)).toEqual([
      'waitingOnSender',
      'changedSinceVisit',
      'notifications',
    ]);
    const waiting = sectionOf(view, 'waitingOnSender');
    expect(waiting.count).toBe(1);
    expect(waiting.items).toEqual([
      expect.objectContaining({
        title: 'Send the signed authority',
        requestNumber: n.acme1,
        kind: 'senderActionRequired',
        href: `/requests/${n.acme1}`,
      }),
    ]);
    // A first visit shows what changed lately: both of Acme's requests, not Globex's.
    const changed = sectionOf(view, 'changedSinceVisit');
    expect(changed.items.map((i) => i.requestNumber).sort()).toEqual([n.acme1, n.acme2].sort());
    expect(JSON.stringify(view)).not.toContain('qualityAssureResult');
    expect(JSON.stringify(view)).not.toContain(n.globex1);
  });

  it("shows another organisation's submitter only its own organisation", async () => {
    const view = await home(cookies.globexSubmitter);
    expect(sectionOf(view, 'waitingOnSender').items.map((i) => i.title)).toEqual(['Globex must answer']);
    expect(sectionOf(view, 'changedSinceVisit').items.map((i) => i.requestNumber)).toEqual([n.globex1]);
    const text = JSON.stringify(view);
    for (const number of [n.acme1, n.acme2]) expect(text).not.toContain(number);
    expect(text).not.toContain('Acme Applicant');
  });

  /** Moves the user's views `minutes` back, as if the user had been away that long. */
  const pause = async (userId: string, minutes: number) => {
    const back = minutes * 60_000;
    await sql`update home_visits set visit_started_at = visit_started_at - ${`${back} milliseconds`}::interval,
      last_view_at = last_view_at - ${`${back} milliseconds`}::interval where user_id = ${userId}`.execute(
      t.db,
    );
  };

  it('counts changes since the visit before, a visit being the first view after a pause', async () => {
    const first = await home(cookies.globexSubmitter);
    expect(first.lastVisitAt).toBeNull();
    // Nothing changes after the visit; the same session still lists the changes it opened on.
    expect(sectionOf(await home(cookies.globexSubmitter), 'changedSinceVisit').count).toBe(1);
    // Another session of the user straight after is the same visit (issue 33 item 11): a reload,
    // a second browser, signing in again do not empty the list.
    const again = await signIn(t.app, 'hglobexsub');
    const same = await home(again);
    expect(same.lastVisitAt).toBeNull();
    expect(sectionOf(same, 'changedSinceVisit').count).toBe(1);
    expect(sectionOf(await home(cookies.globexSubmitter), 'changedSinceVisit').count).toBe(1);
    // After a pause of more than 30 minutes the next view starts a new visit: the earlier visit is
    // the cut-off, and nothing changed since.
    await pause('hglobexsub', 31);
    const next = await home(again);
    expect(next.lastVisitAt).not.toBeNull();
    expect(sectionOf(next, 'changedSinceVisit').count).toBe(0);
    await t.db
      .updateTable('requests')
      .set({ last_activity_at: new Date(Date.now() + 1000) })
      .where('request_number', '=', n.globex1)
      .execute();
    expect(sectionOf(await home(again), 'changedSinceVisit').items.map((i) => i.requestNumber)).toEqual([
      n.globex1,
    ]);
  });

  it('shows an administrator the failed mail and the inbox messages linked to no request', async () => {
    const view = await home(cookies.admin);
    const failed = sectionOf(view, 'failedMail');
    expect(failed.count).toBe(1);
    expect(failed.items[0]).toMatchObject({
      title: 'Your request was received',
      kind: 'nobody@bounce.example',
    });
    expect(failed.items[0]?.href).toMatch(/^\/admin\/outbox\/\d+$/);
    expect(sectionOf(view, 'unmatchedInbox')).toMatchObject({ count: 0, href: '/inbox' });
    // The handler's sections are the administrator's too (it handles requests), with its own task.
    expect(sectionOf(view, 'overdueTasks').items.map((i) => i.requestNumber)).toEqual([n.acme1]);
  });

  it('shows the soonest five of a long list, counts them up to 100 and then says 100+', async () => {
    await createUser(t.db, { id: 'hbusy', roles: [{ role: 'c:roles:handler', scope: acme }], scope: acme });
    const busy = await signIn(t.app, 'hbusy');
    const overdueTask = (i: number) =>
      task({
        type: 'followUp',
        scope: acme,
        requestNumber: n.acme1,
        dueAt: new Date(Date.now() - (200 - i) * hour),
        assignedTo: 'hbusy',
        subject: `Busy ${i}`,
      });
    for (let i = 0; i < 7; i++) await overdueTask(i);
    const seven = sectionOf(await home(busy), 'overdueTasks');
    expect(seven).toMatchObject({ count: 7, countIsCapped: false });
    expect(seven.items.map((i) => i.title)).toEqual(['Busy 0', 'Busy 1', 'Busy 2', 'Busy 3', 'Busy 4']);
    for (let i = 7; i < 103; i++) await overdueTask(i);
    const many = sectionOf(await home(busy), 'overdueTasks');
    expect(many).toMatchObject({ count: 100, countIsCapped: true });
    expect(many.items.map((i) => i.title)).toEqual(seven.items.map((i) => i.title));
  });

  it('sends a browser without a session to sign in, and answers 401 to the client', async () => {
    const browser = await t.app.inject({ url: '/' });
    expect(browser.statusCode).toBe(303);
    expect((await t.app.inject({ url: '/', headers: XHR })).statusCode).toBe(401);
  });
});
