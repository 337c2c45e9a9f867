import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createDb, type Db } from '../src/db/database.js';
import { createNotification } from '../src/features/notifications/service.js';
import { TASK_COLUMNS } from '../src/features/tasks/repository.js';
import { pushTask } from '../src/features/tasks/service.js';
import { LiveHub } from '../src/live/hub.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { connectLive, waitFor } from './support/liveSockets.js';

// Two instances of the app on one database: what is published through one reaches a socket held
// by the other, which is how several web instances behind a load balancer stay live.

let a: TestContext;
let b: { app: FastifyInstance; db: Db; live: LiveHub };
let cookie: string;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const connect = connectLive;

beforeAll(async () => {
  a = await createTestContext();
  const created = createDb(a.url, 3);
  const live = new LiveHub(a.url, console);
  await live.start();
  b = { app: await buildApp({ config: a.config, db: created.db, live }), db: created.db, live };
  await createUser(a.db, { id: 'alice' });
  await createUser(a.db, { id: 'bob' });
  cookie = await signIn(a.app, 'alice');
});

afterAll(async () => {
  await b.app.close();
  await b.live.close();
  await b.db.destroy();
  await a.close();
});

describe('the live connection', () => {
  it('delivers a notification committed through one instance to a socket held by the other', async () => {
    const hostA = await listen(a.app);
    const { ws, messages } = await connect(hostA, { cookie, origin: `http://${hostA}` });
    await b.db.transaction().execute(async (trx) => {
      await createNotification(trx, b.live, {
        userId: 'alice',
        type: 'mention',
        target: '/requests/ACM251122QXT42/',
        text: 'You were mentioned',
        createdBy: null,
      });
      await createNotification(trx, b.live, {
        userId: 'bob',
        type: 'mention',
        target: '/x/',
        text: 'not for alice',
        createdBy: null,
      });
    });
    const message = await waitFor(() =>
      messages.find((m) => (m as { $type: string }).$type === 'notification'),
    );
    expect(message).toMatchObject({ $type: 'notification', type: 'mention', text: 'You were mentioned' });
    expect(messages.some((m) => (m as { text?: string }).text === 'not for alice')).toBe(false);

    const task = await b.db
      .insertInto('tasks')
      .values({
        type: 'issueRequest',
        subject: 'Jane',
        scope: '/',
        assigned_to: 'alice',
        due_at: new Date(Date.now() + 1e7),
      })
      .returning(TASK_COLUMNS)
      .executeTakeFirstOrThrow();
    await pushTask(b.db, b.live, task, null);
    expect(
      await waitFor(() => messages.find((m) => (m as { $type: string }).$type === 'workflowTask')),
    ).toMatchObject({
      taskId: task.id,
      isAssignedTo: 'alice',
    });

    ws.send(JSON.stringify({ $type: 'ping' }));
    expect(
      await waitFor(() => messages.find((m) => (m as { $type: string }).$type === 'pong')),
    ).toBeDefined();
    ws.close();
  });

  it('publishes nothing when the transaction rolls back', async () => {
    const host = `127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
    const { ws, messages } = await connect(host, { cookie, origin: `http://${host}` });
    await expect(
      b.db.transaction().execute(async (trx) => {
        await createNotification(trx, b.live, {
          userId: 'alice',
          type: 'mention',
          target: '/r/',
          text: 'rolled back',
          createdBy: null,
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await new Promise((r) => setTimeout(r, 300));
    expect(messages).toHaveLength(0);
    ws.close();
  });

  it('closes the socket at sign-out', async () => {
    const host = `127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
    const session = await signIn(a.app, 'bob');
    const { closed } = await connect(host, { cookie: session, origin: `http://${host}` });
    await b.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { cookie: session, 'x-requested-with': 'x' },
    });
    expect(await closed).toBe(4001);
  });

  it('refuses a socket without a session or from another origin', async () => {
    const host = `127.0.0.1:${(a.app.server.address() as AddressInfo).port}`;
    const anonymous = await connect(host, { origin: `http://${host}` });
    expect(await anonymous.closed).toBe(4401);
    const foreign = await connect(host, { cookie, origin: 'https://evil.example' });
    expect(await foreign.closed).toBe(4401);
  });
});
