import type { AddressInfo } from 'node:net';
import { richTextFromParagraphs } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/app.js';
import { createDb, type Db } from '../src/db/database.js';
import { LiveHub } from '../src/live/hub.js';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import {
  connectAs,
  type LiveSocket,
  settled,
  lastViewers as viewersOf,
  waitFor,
} from './support/liveSockets.js';
import { insertTestRequest } from './support/requests.js';

// Issue 32 item 5: a live socket outlives a revocation no longer. Two instances on one database:
// the Globex submitter's socket is held by the second, the handler's by the first, and its roles
// are taken on the first. From then on the submitter's socket is told nothing of the request
// (requestChanged names who changed it and the version), and the handler's "who has this open"
// list drops it, even when the socket announces the request again.

let t: TestContext;
let second: { app: FastifyInstance; db: Db; live: LiveHub };
const hosts: string[] = [];
const cookies: Record<string, string> = {};
let n: string;

const connect = (user: string, host: string) => connectAs(host, cookies[user]);
const lastViewers = (s: LiveSocket) => viewersOf(s, n);
const changed = (s: LiveSocket) =>
  s.messages.filter((m) => m.$type === 'requestChanged' && m.requestNumber === n);

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'gary',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  await createUser(t.db, {
    id: 'hank',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  for (const user of ['root', 'gary', 'hank']) cookies[user] = await signIn(t.app, user);
  n = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'GLX', status: 'open' });
  // The second instance: its own pool, hub (LISTEN connection) and server, on the same database.
  const { db } = createDb(t.url, 3);
  const live = new LiveHub(t.url, console);
  await live.start();
  const app = await buildApp({ config: t.config, db, live });
  second = { app, db, live };
  for (const instance of [t.app, app]) {
    await instance.listen({ port: 0, host: '127.0.0.1' });
    hosts.push(`127.0.0.1:${(instance.server.address() as AddressInfo).port}`);
  }
});
afterAll(async () => {
  await second?.app.close();
  await second?.live.close();
  await second?.db.destroy();
  await t.close();
});

describe('a live socket whose user loses its roles', () => {
  it('is told nothing more of the request and leaves the others\u2019 list, across instances', async () => {
    const [first, other] = hosts as [string, string];
    const hank = await connect('hank', first);
    const gary = await connect('gary', other);
    hank.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await waitFor(() => lastViewers(hank));
    gary.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await waitFor(() => (lastViewers(hank)?.length === 2 ? true : undefined));
    expect(lastViewers(hank)).toEqual(['gary', 'hank']);

    // The control: before, the submitter's socket is told of a change made on the first instance.
    const handler = caller(t.app, cookies.hank);
    const note = (text: string) =>
      handler.post(`/requests/${n}/actions/addNote`, { body: richTextFromParagraphs(text) });
    expect((await note('Before the revocation.')).statusCode).toBe(200);
    await waitFor(() => changed(gary)[0]);

    // An administrator takes all of the submitter's roles, through the user screens of the first.
    const root = caller(t.app, cookies.root);
    const view = (await root.get('/admin/users/edit/gary')).json().user;
    const saved = await root.post('/admin/users/edit/gary', { ...view, phone: '02 9876 5432', roles: [] });
    expect(saved.statusCode, saved.body).toBe(200);
    const mark = gary.messages.length;

    // The handler's list drops the submitter at once, though its socket is still open.
    await waitFor(() => (lastViewers(hank)?.length === 1 ? true : undefined));
    expect(lastViewers(hank)).toEqual(['hank']);
    expect(gary.ws.readyState).toBe(WebSocket.OPEN);

    // Announcing the request again on the same socket brings it back to nobody's list.
    gary.ws.send(JSON.stringify({ $type: 'viewing', requestNumber: n }));
    await settled(gary);

    // Later changes reach the handler, and nothing of them the submitter.
    const seen = changed(gary).length;
    expect((await note('After the revocation.')).statusCode).toBe(200);
    await waitFor(() => (changed(hank).length >= 2 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(changed(gary).length).toBe(seen);
    expect(gary.messages.slice(mark).filter((m) => m.requestNumber === n)).toEqual([]);
    expect(lastViewers(hank)).toEqual(['hank']);
    const rows = await t.db.selectFrom('presence').select(['user_id', 'request_number']).execute();
    expect(rows.filter((r) => r.user_id === 'gary' && r.request_number === n)).toEqual([]);
    hank.ws.close();
    gary.ws.close();
  });
});
