import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNotification } from '../src/features/notifications/service.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';

let t: TestContext;
let alice: string;
let bob: string;

async function notify(userId: string, n: number) {
  for (let i = 0; i < n; i++) {
    await createNotification(t.db, t.live, {
      userId,
      type: 'requestIssued',
      target: `/requests/ACM251122QXT${String(i).padStart(2, '0')}/`,
      text: `Request issued ${i}`,
      createdBy: null,
    });
  }
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice' });
  await createUser(t.db, { id: 'bob' });
  alice = await signIn(t.app, 'alice');
  bob = await signIn(t.app, 'bob');
  await notify('alice', 25);
  await notify('bob', 1);
});
afterAll(() => t.close());

const get = (url: string, cookie: string) => t.app.inject({ url, headers: { ...XHR, cookie } });
const ack = (cookie: string, payload: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/notifications/acknowledge',
    headers: { ...XHR, cookie },
    payload: payload as object,
  });

describe('notifications', () => {
  it('lists the 20 most recent of the user, newest first', async () => {
    const list = (await get('/notifications', alice)).json().notifications;
    expect(list).toHaveLength(20);
    expect(list[0].text).toBe('Request issued 24');
    const ids = list.map((n: { notificationId: string }) => Number(n.notificationId));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(list.every((n: { target: string }) => n.target.startsWith('/requests/ACM'))).toBe(true);
  });

  it('counts the active ones', async () => {
    expect((await get('/notifications/active', alice)).json()).toEqual({ count: 25, hasMore: false });
  });

  it("ignores another user's notification ids", async () => {
    const bobs = (await get('/notifications', bob)).json().notifications;
    const res = await ack(alice, { notificationIds: [bobs[0].notificationId] });
    expect(res.statusCode).toBe(200);
    expect((await get('/notifications/active', bob)).json().count).toBe(1);
  });

  it('acknowledges one, then all', async () => {
    const list = (await get('/notifications', alice)).json().notifications;
    const one = await ack(alice, { notificationIds: [list[0].notificationId] });
    expect(one.json().notifications[0].acknowledgedAt).not.toBeNull();
    expect((await get('/notifications/active', alice)).json().count).toBe(24);
    await ack(alice, { all: true });
    expect((await get('/notifications/active', alice)).json().count).toBe(0);
  });

  it('caps the active count and says there are more', async () => {
    await notify('bob', 100);
    expect((await get('/notifications/active', bob)).json()).toEqual({ count: 99, hasMore: true });
  });

  it('rejects a malformed acknowledgement and a caller without a session', async () => {
    expect((await ack(alice, { notificationIds: ['x'] })).statusCode).toBe(400);
    expect((await ack(alice, { all: false })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/notifications', headers: XHR })).statusCode).toBe(401);
  });
});
