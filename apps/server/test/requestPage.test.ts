import type { RequestPreview, RequestView } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequestSummary } from '../src/features/requestPage/index.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, type TestContext } from './helpers.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';

let t: TestContext;
let handler: ReturnType<typeof caller>;
let submitter: ReturnType<typeof caller>;
let globex: ReturnType<typeof caller>;
let n: string;

const AUTHORITY = { key: 'authority-key', name: 'authority.pdf' };

beforeAll(async () => {
  t = await createTestContext();
  const people = await createUsualPeople(t);
  handler = caller(t.app, people.handler);
  submitter = caller(t.app, people.submitter);
  globex = caller(t.app, people.globex);
  n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    submittedBy: 'submitter',
    applicant: { country: 'AU', authority: AUTHORITY },
    submittedAt: new Date(Date.now() - 10 * 86_400_000),
  });
  await t.db
    .insertInto('tasks')
    .values([
      {
        type: 'followUp',
        subject: 'Follow Up: Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        due_at: new Date(Date.now() + 86_400_000),
        triggered_at: new Date(),
      },
      {
        type: 'senderActionRequired',
        subject: 'Sender Action Required: Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        due_at: new Date('9999-12-31T00:00:00Z'),
        triggered_at: new Date(Date.now() - 5 * 86_400_000),
      },
    ])
    .execute();
});
afterAll(() => t.close());

const view = async (who = handler) => (await who.get(`/requests/${n}`)).json() as RequestView;

describe('request page', () => {
  it('shows a handler the request with KPI, editable parts, actions, task lists and lookups', async () => {
    const res = await handler.get(`/requests/${n}`);
    expect(res.statusCode).toBe(200);
    const v = res.json() as RequestView;
    expect(v.$type).toBe('request');
    expect(v.request.requestNumber).toBe(n);
    expect(v.request.applicant.name).toBe('Jane Citizen');
    expect(v.request.submittedByDisplayName).toBe('User submitter');
    expect(v.request.kpi.calendarDaysElapsed).toBeGreaterThanOrEqual(9);
    expect(v.request.kpi.businessDaysElapsed).toBeGreaterThan(0);
    expect(v.request.kpi.daysPendedExternal).toBeGreaterThan(0);
    expect(v.request.kpi.businessDaysElapsedLessPended).toBeLessThan(v.request.kpi.businessDaysElapsed);
    expect(v.editableParts).toEqual(
      expect.arrayContaining(['summary', 'sender', 'applicant', 'recipient', 'content']),
    );
    expect(v.actions).toEqual(expect.arrayContaining(['addTask', 'addNote', 'closeRequest']));
    expect(v.actions).not.toContain('reOpenRequest');
    expect(v.canAddUrgentNote).toBe(true);
    expect(v.tasks.map((task) => task.type).sort()).toEqual(['followUp', 'senderActionRequired']);
    expect(v.recipientTasks.map((task) => task.type)).toEqual(['followUp']);
    expect(v.previews.tasksDue).toBe(2);
    expect(v.lookups.tags.close?.[0]?.id).toBe('closeReason');
    expect(v.lookups.addableTaskTypes).toContain('followUp');
    expect(v.lookups.addableTaskTypes).not.toContain('senderUrgentNote');
  });

  it('lets the sender organisation see it with only its own edits, and refuses another organisation', async () => {
    const v = await view(submitter);
    expect(v.editableParts.sort()).toEqual(['applicant', 'content']);
    expect(v.actions).not.toContain('closeRequest');
    expect(v.actions).toContain('addNote');
    expect((await globex.get(`/requests/${n}`)).statusCode).toBe(403);
    expect((await globex.get(`/requests/${n}/preview`)).statusCode).toBe(403);
    expect((await globex.get(`/requests/${n}/mention-suggestions?prefix=us`)).statusCode).toBe(403);
    expect((await globex.post(`/requests/${n}/applicant`, { version: 1, data: {} })).statusCode).toBe(403);
  });

  it('answers 404 for an unknown or malformed request number', async () => {
    expect((await handler.get('/requests/ACM251122QXT00')).statusCode).toBe(404);
    expect((await handler.get('/requests/nonsense')).statusCode).toBe(404);
  });

  it('offers the sender edit the submitters of the organisation by name, not a raw user id', async () => {
    const v = await view();
    expect(v.editableParts).toContain('sender');
    expect(v.lookups.submitters?.map((s) => s.id)).toEqual(['submitter']);
    expect((await view(submitter)).lookups.submitters ?? []).not.toContainEqual(
      expect.objectContaining({ id: 'globex' }),
    );
  });

  it('rejects a bad part edit with field errors and changes nothing', async () => {
    const before = await view();
    const res = await handler.post(`/requests/${n}/applicant`, {
      version: before.request.version,
      data: { ...before.request.applicant, name: '', dateOfBirth: '2999-01-01' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toMatchObject({ name: expect.any(String), dateOfBirth: expect.any(String) });
    const typeErr = await handler.post(`/requests/${n}/applicant`, {
      version: before.request.version,
      data: { name: 5 },
    });
    expect(typeErr.statusCode).toBe(400);
    expect(typeErr.json().fields.name).toBeDefined();
    const after = await view();
    expect(after.request.applicant).toEqual(before.request.applicant);
    expect(after.request.version).toBe(before.request.version);
  });

  it('saves a part edit with a history entry of the changed fields, and refuses a stale version', async () => {
    const before = await view();
    const applicant = { ...before.request.applicant, name: 'Janet Citizen', phone: '0400 000 000' };
    const res = await handler.post(`/requests/${n}/applicant`, {
      version: before.request.version,
      data: applicant,
    });
    expect(res.statusCode).toBe(200);
    const v = res.json() as RequestView;
    expect(v.request.applicant.name).toBe('Janet Citizen');
    expect(v.request.version).toBe(before.request.version + 1);
    expect(v.history[0]?.summary).toBe('Applicant edited: name, phone.');
    expect(v.history[0]?.actorDisplayName).toBe('User handler');
    expect(v.history[0]?.changes?.name).toEqual({ from: 'Jane Citizen', to: 'Janet Citizen' });
    const row = await t.db
      .selectFrom('requests')
      .select('applicant_name')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(row.applicant_name).toBe('Janet Citizen');

    const stale = await handler.post(`/requests/${n}/applicant`, {
      version: before.request.version,
      data: { ...applicant, name: 'Someone Else' },
    });
    expect(stale.statusCode).toBe(409);
    expect((await view()).request.applicant.name).toBe('Janet Citizen');
  });

  it('edits sender and summary for handlers only, and keeps the organisation', async () => {
    const v = await view();
    const sender = { ...v.request.sender, referenceNumber: 'AC-77', externalUserReferences: ['adv-1'] };
    const ok = await handler.post(`/requests/${n}/sender`, { version: v.request.version, data: sender });
    expect(ok.statusCode).toBe(200);
    expect((ok.json() as RequestView).request.sender.referenceNumber).toBe('AC-77');
    const v2 = ok.json() as RequestView;
    const moved = await handler.post(`/requests/${n}/sender`, {
      version: v2.request.version,
      data: { ...sender, organization: '/org/globex/' },
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().fields.organization).toBeDefined();
    expect(
      (await submitter.post(`/requests/${n}/sender`, { version: v2.request.version, data: sender }))
        .statusCode,
    ).toBe(403);
    const tags = await handler.post(`/requests/${n}/summary`, {
      version: v2.request.version,
      data: { tags: { priority: 'High' } },
    });
    expect(tags.statusCode).toBe(200);
    expect((tags.json() as RequestView).request.tags).toEqual({ priority: 'High' });
  });

  it('lets the submitter edit content until the request is issued, and nobody edits a closed request', async () => {
    const r = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'submitter' });
    const v = (await submitter.get(`/requests/${r}`)).json() as RequestView;
    const content = { ...v.request.content, additionalInstructions: 'Please include imaging.' };
    expect(
      (await submitter.post(`/requests/${r}/content`, { version: v.request.version, data: content }))
        .statusCode,
    ).toBe(200);
    await t.db
      .updateTable('requests')
      .set({ issued_at: new Date(), status: 'open' })
      .where('request_number', '=', r)
      .execute();
    const issued = (await submitter.get(`/requests/${r}`)).json() as RequestView;
    expect(issued.editableParts).toEqual([]);
    expect(
      (await submitter.post(`/requests/${r}/content`, { version: issued.request.version, data: content }))
        .statusCode,
    ).toBe(409);
    await t.db
      .updateTable('requests')
      .set({ status: 'closed', closed_at: new Date() })
      .where('request_number', '=', r)
      .execute();
    const closed = (await handler.get(`/requests/${r}`)).json() as RequestView;
    expect(closed.editableParts).toEqual([]);
    expect(
      (await handler.post(`/requests/${r}/content`, { version: closed.request.version, data: content }))
        .statusCode,
    ).toBe(409);
  });

  it('answers the hover preview with the newest correspondence', async () => {
    await t.db
      .insertInto('correspondence')
      .values({
        request_number: n,
        kind: 'note',
        body: JSON.stringify({ type: 'text', content: 'Called the clinic.' }),
        created_by: 'handler',
      })
      .execute();
    const res = await handler.get(`/requests/${n}/preview`);
    expect(res.statusCode).toBe(200);
    const p = res.json() as RequestPreview;
    expect(p.request.applicant.name).toBe('Janet Citizen');
    expect(p.request.recipient.name).toBe('Northside Medical Centre');
    expect(p.request.senderSummary).toContain('ref. AC-77');
    expect(p.mostRecentCorrespondence?.excerpt).toBe('Called the clinic.');
  });

  it('suggests people who may see the request, from two characters on', async () => {
    expect((await handler.get(`/requests/${n}/mention-suggestions?prefix=u`)).statusCode).toBe(400);
    const res = await handler.get(`/requests/${n}/mention-suggestions?prefix=user`);
    expect(res.statusCode).toBe(200);
    const ids = (res.json().suggestions as { id: string }[]).map((s) => s.id).sort();
    expect(ids).toEqual(['handler', 'submitter']);
  });
});

describe('request page KPI', () => {
  const summaryKpi = async (number: string) => {
    const row = await t.db
      .selectFrom('requests')
      .selectAll()
      .where('request_number', '=', number)
      .executeTakeFirstOrThrow();
    return (await buildRequestSummary(t.db, row)).kpi;
  };
  const day = 86_400_000;

  it('counts the pended days the summary counts, from the task list or, past its limit, on its own', async () => {
    const many = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      prefix: 'ACM',
      submittedBy: 'submitter',
      submittedAt: new Date(Date.now() - 30 * day),
    });
    const task = { request_number: many, scope: '/org/acme/', due_at: new Date(Date.now() + day) };
    await t.db
      .insertInto('tasks')
      .values([
        {
          ...task,
          type: 'actionDeferred',
          subject: 'Action Deferred',
          triggered_at: new Date(Date.now() - 20 * day),
          completed_at: new Date(Date.now() - 10 * day),
        },
        // More tasks than the page lists, so the deferral may fall outside the list.
        ...Array.from({ length: 200 }, (_, i) => ({
          ...task,
          type: 'followUp',
          subject: `Follow Up ${i}`,
          triggered_at: new Date(),
        })),
      ])
      .execute();
    const cases: [string, ReturnType<typeof caller>][] = [
      [n, handler],
      [n, submitter],
      [many, handler],
    ];
    for (const [number, who] of cases) {
      const page = (await who.get(`/requests/${number}`)).json() as RequestView;
      expect(page.request.kpi).toEqual(await summaryKpi(number));
    }
    expect((await summaryKpi(many)).daysPendedInternal).toBeGreaterThan(0);
  });
});
