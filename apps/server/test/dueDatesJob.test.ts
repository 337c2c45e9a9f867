import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { registerQueues } from '../src/jobs/handlers.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';

// With the jobs service, a change of public holidays moves open due dates in a job after the commit
// (a scope can hold a hundred thousand open tasks), every task of the scope and only those.

let t: TestContext;
let jobs: JobQueue;
let app: FastifyInstance;

beforeAll(async () => {
  t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await registerQueues(jobs, t.db, t.config, true);
  app = await buildApp({ config: t.config, db: t.db, live: t.live, jobs });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await jobs.stop();
  await t.close();
});

describe('holidays moving due dates in a job', () => {
  it('moves every open task of the scope past the new holidays, and no other', async () => {
    // Triggered Monday 7 Dec 2026, 10:00 Sydney; followUp takes 10 business days -> Monday 21 Dec.
    const triggered = new Date('2026-12-06T23:00:00Z');
    const before = new Date('2026-12-20T23:00:00Z');
    const rows = (scope: string) =>
      Array.from({ length: 1500 }, () => ({
        type: 'followUp',
        subject: 'Follow up',
        scope,
        triggered_at: triggered,
        due_at: before,
      }));
    await t.db.insertInto('tasks').values(rows('/org/acme/')).execute();
    await t.db.insertInto('tasks').values(rows('/org/globex/').slice(0, 10)).execute();
    const cookie = await signIn(app, 'root');
    const res = await app.inject({
      method: 'POST',
      url: '/admin/configuration/edit/orgAcme/acmeDays',
      headers: { ...XHR, cookie },
      payload: {
        name: 'Acme days',
        type: 'publicHolidaysEntry',
        order: 0,
        isDefault: false,
        isDisabled: false,
        data: { dates: ['2026-12-14', '2026-12-15'] },
        version: null,
      },
    });
    expect(res.statusCode).toBe(200);
    const dueDates = async (scope: string) =>
      (await t.db.selectFrom('tasks').select('due_at').where('scope', '=', scope).execute()).map((r) =>
        r.due_at?.toISOString(),
      );
    await until(async () => (await dueDates('/org/acme/')).every((d) => d === '2026-12-22T23:00:00.000Z'));
    expect(new Set(await dueDates('/org/globex/'))).toEqual(new Set([before.toISOString()]));
  });

  it('puts the due dates at the task type due time of day, and refuses a time that is none', async () => {
    const cookie = await signIn(app, 'root');
    const save = (dueTimeOfDay: string) =>
      app.inject({
        method: 'POST',
        url: '/admin/configuration/edit/orgAcme/acmeFollowUp',
        headers: { ...XHR, cookie },
        payload: {
          name: 'Acme follow up',
          type: 'taskTypeSettingsEntry',
          order: 0,
          isDefault: false,
          isDisabled: false,
          data: { taskType: 'followUp', defaultDueDateInBusinessDays: 10, dueTimeOfDay },
          version: null,
        },
      });
    const bad = await save('PT25H0M');
    expect(bad.statusCode).toBe(400);
    console.log(JSON.stringify(bad.json()));
    expect((await save('PT17H0M')).statusCode).toBe(200);
    // Ten business days after Monday 7 Dec past the holidays: Wednesday 23 Dec, 17:00 in Sydney.
    await until(async () =>
      (await t.db.selectFrom('tasks').select('due_at').where('scope', '=', '/org/acme/').execute()).every(
        (r) => r.due_at?.toISOString() === '2026-12-23T06:00:00.000Z',
      ),
    );
  });
});
