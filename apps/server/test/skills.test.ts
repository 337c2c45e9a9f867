import { TRAINABLE_TASK_TYPES } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, seedScopes } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

// Task skills pages and POST /tasks/skills: who may, what is valid, what is saved, and that the
// assignment follows the change (an open task moves to the newly trained and active handler).

let t: TestContext;
let manager: ReturnType<typeof caller>;
let acmeManager: ReturnType<typeof caller>;
let handler: ReturnType<typeof caller>;

const skills = (userId: string) =>
  t.db
    .selectFrom('task_skills')
    .select(['task_type', 'level', 'status'])
    .where('user_id', '=', userId)
    .execute();

beforeAll(async () => {
  t = await createTestContext();
  await seedScopes(t.db);
  await createUser(t.db, { id: 'manager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmemanager',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:manager', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'handler',
    scope: '/org/dossier/',
    roles: [{ role: 'c:roles:handler', scope: '/' }],
  });
  await createUser(t.db, {
    id: 'acmeclerk',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'acmehandler',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }],
  });
  manager = caller(t.app, await signIn(t.app, 'manager'));
  acmeManager = caller(t.app, await signIn(t.app, 'acmemanager'));
  handler = caller(t.app, await signIn(t.app, 'handler'));
});
afterAll(() => t.close());

describe('the task skills pages', () => {
  it('lists the users within the actor scopes with a column per trainable task type', async () => {
    const res = await manager.get('/tasks/skills/levels');
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({ $type: 'taskSkills', title: 'Task Skill Levels', mode: 'levels' });
    expect(view.taskTypes).toEqual([...TRAINABLE_TASK_TYPES]);
    expect(view.taskTypes).not.toContain('senderActionRequired');
    const row = view.users.find((u: { userId: string }) => u.userId === 'handler');
    expect(row).toMatchObject({
      id: 'handler',
      name: 'User handler',
      scope: '/org/dossier/',
      isOnline: false,
      skillLevels: { issueRequest: 'untrained' },
      skillStatus: { issueRequest: 'inactive' },
    });
    expect(row.permissions).toContain('request:handle');

    const status = (await manager.get('/tasks/skills/status')).json();
    expect(status).toMatchObject({ title: 'Task Skill Status', mode: 'status' });

    // Only users who work requests have skills: no submitters, no managers.
    expect(view.users.map((u: { userId: string }) => u.userId).sort()).toEqual(['acmehandler', 'handler']);
    // A manager of /org/acme/ sees only Acme's.
    const acme = (await acmeManager.get('/tasks/skills/levels')).json();
    expect(acme.users.map((u: { userId: string }) => u.userId)).toEqual(['acmehandler']);
  });

  it('needs task:skills', async () => {
    expect((await handler.get('/tasks/skills/levels')).statusCode).toBe(403);
    const body = {
      users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { followUp: 'trained' } }],
    };
    expect((await handler.post('/tasks/skills', body)).statusCode).toBe(403);
    expect((await caller(t.app).get('/tasks/skills/status')).statusCode).toBe(401);
  });
});

describe('saving task skills', () => {
  it('rejects bad input with a message per field and saves nothing', async () => {
    const cases: [unknown, string][] = [
      [
        { users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { flying: 'trained' } }] },
        'users.0.skillLevels.flying',
      ],
      [
        { users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { followUp: 'expert' } }] },
        'users.0.skillLevels.followUp',
      ],
      [{ users: [{ userId: 'nobody', scope: '/', skillLevels: { followUp: 'trained' } }] }, 'users.0.userId'],
      [
        { users: [{ userId: 'acmeclerk', scope: '/org/acme/', skillLevels: { followUp: 'trained' } }] },
        'users.0.userId',
      ],
      [
        { users: [{ userId: 'handler', scope: '/org/dossier/', skillStatus: { followUp: 'active' } }] },
        'users.0.skillStatus.followUp',
      ],
      [
        {
          users: [
            { userId: 'handler', scope: '/org/dossier/', skillLevels: { senderActionRequired: 'trained' } },
          ],
        },
        'users.0.skillLevels.senderActionRequired',
      ],
      [{ users: [{ userId: 'handler', scope: '/org/dossier/' }] }, 'users.0.skillLevels'],
      [{ users: [] }, 'users'],
    ];
    for (const [body, field] of cases) {
      const res = await manager.post('/tasks/skills', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(res.json().fields ?? {})).toContain(field);
    }
    expect(await skills('handler')).toEqual([]);
  });

  it('refuses users outside the actor scopes with 403', async () => {
    const res = await acmeManager.post('/tasks/skills', {
      users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { followUp: 'trained' } }],
    });
    expect(res.statusCode).toBe(403);
    expect(await skills('handler')).toEqual([]);
  });

  it('answers 409 when the user has moved to another scope since the page was loaded', async () => {
    const res = await manager.post('/tasks/skills', {
      users: [{ userId: 'handler', scope: '/org/acme/', skillLevels: { followUp: 'trained' } }],
    });
    expect(res.statusCode).toBe(409);
  });

  it('saves levels and status, keeps status inactive while untrained, and reassigns open tasks', async () => {
    const task = await t.db
      .insertInto('tasks')
      .values({
        type: 'payInvoice',
        subject: 'Pay Invoice: Jane',
        scope: '/org/acme/',
        due_at: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const levels = await manager.post('/tasks/skills', {
      users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { payInvoice: 'trained' } }],
    });
    expect(levels.statusCode).toBe(200);
    expect(levels.json().users[0]).toMatchObject({
      userId: 'handler',
      skillLevels: { payInvoice: 'trained' },
      skillStatus: { payInvoice: 'inactive' },
    });
    const open = () =>
      t.db.selectFrom('tasks').select('assigned_to').where('id', '=', task.id).executeTakeFirstOrThrow();
    expect((await open()).assigned_to).toBeNull();

    const status = await manager.post('/tasks/skills', {
      users: [{ userId: 'handler', scope: '/org/dossier/', skillStatus: { payInvoice: 'active' } }],
    });
    expect(status.statusCode).toBe(200);
    expect(status.json().users[0].skillStatus.payInvoice).toBe('active');
    expect(await skills('handler')).toEqual([
      { task_type: 'payInvoice', level: 'trained', status: 'active' },
    ]);
    // Trained and active: the unassigned payInvoice task is given to the handler at once.
    expect((await open()).assigned_to).toBe('handler');

    const view = (await manager.get('/tasks/skills/status')).json();
    expect(view.users.find((u: { userId: string }) => u.userId === 'handler').skillStatus.payInvoice).toBe(
      'active',
    );

    // Untrained again: the status drops with it and the task leaves the handler.
    const untrained = await manager.post('/tasks/skills', {
      users: [{ userId: 'handler', scope: '/org/dossier/', skillLevels: { payInvoice: 'untrained' } }],
    });
    expect(untrained.json().users[0].skillStatus.payInvoice).toBe('inactive');
    expect((await open()).assigned_to).toBeNull();

    const history = await t.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'taskSkillsChanged')
      .where('aggregate_id', '=', 'handler')
      .execute();
    expect(history).toHaveLength(3);
  });

  it('reassigns the open tasks of a user who is disabled', async () => {
    await manager.post('/tasks/skills', {
      users: [
        {
          userId: 'handler',
          scope: '/org/dossier/',
          skillLevels: { payInvoice: 'trained' },
          skillStatus: { payInvoice: 'active' },
        },
      ],
    });
    const task = await t.db
      .insertInto('tasks')
      .values({
        type: 'payInvoice',
        subject: 'Pay Invoice: John',
        scope: '/org/acme/',
        assigned_to: 'handler',
        due_at: new Date(Date.now() + 86_400_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    const admin = caller(t.app, await signIn(t.app, 'admin'));
    const form = (await admin.get('/admin/users/edit/handler')).json().user;
    const res = await admin.post('/admin/users/edit/handler', {
      ...form,
      phone: '+61291234567',
      disabled: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db
      .selectFrom('tasks')
      .select('assigned_to')
      .where('id', '=', task.id)
      .executeTakeFirstOrThrow();
    expect(row.assigned_to).toBeNull();
  });
});
