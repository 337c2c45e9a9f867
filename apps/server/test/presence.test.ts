import type { AddressInfo } from 'node:net';
import { richTextFromParagraphs } from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishTopic } from '../src/live/hub.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { connectAs, type LiveSocket, lastViewers as viewersOf, waitFor } from './support/liveSockets.js';
import { insertTestRequest } from './support/requests.js';

// Presence on the request page: two users open the same request over real sockets and each is told
// who else has it open; leaving updates the others; a request the user may not see is not recorded.
// The online state of the skills pages comes from the same rows.

let t: TestContext;
let host: string;
let n: string;
const cookies: Record<string, string> = {};

const connect = (user: string) => connectAs(host, cookies[user]);
/** The newest viewer list a socket received for the request, as user ids. */
const lastViewers = (s: LiveSocket) => viewersOf(s, n);

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'alice', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'bob', roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }] });
  await createUser(t.db, {
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  await createUser(t.db, { id: 'manager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  for (const user of ['alice', 'bob', 'globex', 'manager']) cookies[user] = await signIn(t.app, user);
  n = await insertTestRequest(t.db, { scope: '/org/acme/' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  host = `127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

describe('who else has the request open', () => {
  it('tells each viewer about the others, live, and updates them when one leaves', async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    const globex = await connect('globex');
    alice.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    expect(await waitFor(() => lastViewers(alice))).toEqual(['alice']);

    bob.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await waitFor(() => (lastViewers(alice)?.length === 2 ? true : undefined));
    expect(lastViewers(alice)).toEqual(['alice', 'bob']);
    expect(await waitFor(() => lastViewers(bob))).toEqual(['alice', 'bob']);
    expect(alice.messages.at(-1)?.viewers).toContainEqual({ userId: 'bob', name: 'User bob' });

    // A user who may not see the request is neither recorded nor told.
    globex.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    globex.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: 'not a number' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(lastViewers(globex)).toBeUndefined();
    expect(lastViewers(alice)).toEqual(['alice', 'bob']);

    // Bob navigates away: Alice is told at once.
    bob.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: null }));
    await waitFor(() => (lastViewers(alice)?.length === 1 ? true : undefined));
    expect(lastViewers(alice)).toEqual(['alice']);

    // Bob comes back and closes the tab: the socket's close removes him too.
    bob.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await waitFor(() => (lastViewers(alice)?.length === 2 ? true : undefined));
    bob.ws.close();
    await waitFor(() => (lastViewers(alice)?.length === 1 ? true : undefined));
    expect(lastViewers(alice)).toEqual(['alice']);
    const rows = await t.db
      .selectFrom('presence')
      .select('user_id')
      .where('request_number', '=', n)
      .execute();
    expect(rows.map((r) => r.user_id)).toEqual(['alice']);
    alice.ws.close();
    globex.ws.close();
  });

  it('shows users online on the skills pages while they hold a live connection', async () => {
    const manager = caller(t.app, cookies.manager);
    const online = async () =>
      (await manager.get('/tasks/skills/levels'))
        .json()
        .users.find((u: { userId: string }) => u.userId === 'alice').isOnline as boolean;
    const socket = await connect('alice');
    socket.ws.send(JSON.stringify({ $type: 'ping' }));
    await waitFor(() => socket.messages.find((m) => m.$type === 'pong'));
    expect(await online()).toBe(true);
    socket.ws.close();
    const end = Date.now() + 5000;
    while ((await online()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    expect(await online()).toBe(false);
    // A connection whose instance died stops counting once its row is older than the TTL.
    await t.db
      .insertInto('presence')
      .values({ connection_id: 'dead', user_id: 'alice', seen_at: new Date(Date.now() - 10 * 60_000) })
      .execute();
    expect(await online()).toBe(false);
  });

  it('tells whoever has the request open that another user changed it, and nobody else', async () => {
    const alice = await connect('alice');
    const manager = await connect('manager');
    alice.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await waitFor(() => lastViewers(alice));
    const changed = (s: LiveSocket) => s.messages.filter((m) => m.$type === 'requestChanged');

    const bob = caller(t.app, cookies.bob);
    const res = await bob.post(`/requests/${n}/actions/addNote`, {
      body: richTextFromParagraphs('Called the recipient.'),
    });
    expect(res.statusCode).toBe(200);
    const message = await waitFor(() => changed(alice)[0]);
    // The version the change was recorded at: the action's answer is past it, so a page holding
    // that answer need not fetch again.
    const answered = res.json().request.version;
    expect(message).toEqual({ $type: 'requestChanged', requestNumber: n, by: 'bob', version: answered - 1 });
    // The manager is connected but shows no request: nothing for them.
    await new Promise((r) => setTimeout(r, 200));
    expect(changed(manager)).toEqual([]);

    // A change refused (and so rolled back) tells nobody.
    const before = changed(alice).length;
    expect((await bob.post(`/requests/${n}/actions/addNote`, { body: 'x' })).statusCode).toBe(400);
    await new Promise((r) => setTimeout(r, 200));
    expect(changed(alice).length).toBe(before);
    alice.ws.close();
    manager.ws.close();
  });

  it('tells every open dashboard that a request changed, and an inbox message only to inbox users', async () => {
    const manager = await connect('manager');
    const globex = await connect('globex');
    const alice = await connect('alice');
    const topics = (s: LiveSocket) =>
      s.messages.filter((m) => m.$type === 'topicChanged').map((m) => m.topic);
    manager.ws.send(JSON.stringify({ $type: 'following', topic: 'dashboard' }));
    const inbox = 'inbox:00000000-0000-4000-8000-000000000001';
    globex.ws.send(JSON.stringify({ $type: 'following', topic: inbox }));
    alice.ws.send(JSON.stringify({ $type: 'following', topic: inbox }));
    // The follow is handled on the server's side of the socket; a ping answered means it was read.
    for (const s of [manager, globex, alice]) {
      s.ws.send(JSON.stringify({ $type: 'ping' }));
      await waitFor(() => s.messages.find((m) => m.$type === 'pong'));
    }

    const bob = caller(t.app, cookies.bob);
    const note = { body: richTextFromParagraphs('Dashboard news.') };
    expect((await bob.post(`/requests/${n}/actions/addNote`, note)).statusCode).toBe(200);
    expect(await waitFor(() => topics(manager)[0])).toBe('dashboard');

    await t.db.transaction().execute((trx) => publishTopic(trx, inbox));
    expect(await waitFor(() => topics(alice)[0])).toBe(inbox);
    // The inbox list: an inbox user follows it, a submitter may not.
    alice.ws.send(JSON.stringify({ $type: 'following', topic: 'inbox' }));
    globex.ws.send(JSON.stringify({ $type: 'following', topic: 'inbox' }));
    for (const s of [globex, alice]) {
      s.ws.send(JSON.stringify({ $type: 'ping' }));
      await waitFor(() => (s.messages.filter((m) => m.$type === 'pong').length === 2 ? true : undefined));
    }
    await t.db.transaction().execute((trx) => publishTopic(trx, 'inbox'));
    expect(await waitFor(() => topics(alice)[1])).toBe('inbox');
    // The submitter may not use the inbox: following it was refused.
    await new Promise((r) => setTimeout(r, 200));
    expect(topics(globex)).toEqual([]);
    // Leaving the page stops it.
    manager.ws.send(JSON.stringify({ $type: 'following', topic: null }));
    manager.ws.send(JSON.stringify({ $type: 'ping' }));
    await waitFor(() => (manager.messages.filter((m) => m.$type === 'pong').length === 2 ? true : undefined));
    expect((await bob.post(`/requests/${n}/actions/addNote`, note)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(topics(manager)).toEqual(['dashboard']);
    for (const s of [manager, globex, alice]) s.ws.close();
  });
});
