import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { registerQueues } from '../src/jobs/handlers.js';
import { JobQueue } from '../src/jobs/queue.js';
import { followedTopic } from '../src/live/routes.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { monthsAgo, requestFile, setRetention } from './support/retention.js';

// Run now on the Retention page (issue 36) with a job queue: the click records the run and queues it
// as a job of the retention queue (the HTTP request does not wait for it); a second click while it
// is queued queues nothing more; a worker of any instance runs it once, and the page shows its
// record. The page follows the `retention` live topic, which only administrators may follow.

let t: TestContext;
let jobs: JobQueue;
let app: FastifyInstance;
let cookie: string;
let due: string;
let dueKey: string;
const acme = '/org/acme/';

const stored = (key: string) =>
  fs.existsSync(path.join(t.config.files.dir, key.slice(0, 2), key.slice(2, 4), key));
const runNow = () =>
  app.inject({ method: 'POST', url: '/admin/retention/run', headers: { ...XHR, cookie }, payload: {} });
const runsOf = () => t.db.selectFrom('retention_runs').selectAll().where('kind', '=', 'manual').execute();

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'acmeadmin', scope: acme, roles: [{ role: 'c:roles:admin', scope: acme }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await setRetention(t, acme, { deleteFilesAfterMonths: 12, deIdentifyAfterMonths: null });
  due = await insertTestRequest(t.db, { scope: acme, status: 'closed', closedAt: monthsAgo(20) });
  dueKey = await requestFile(t, await signIn(t.app, 'handler'), due);
  // The queues are declared but nobody works them yet: the run stays queued until the test says.
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await registerQueues(jobs, t.db, t.config, false);
  app = await buildApp({ config: t.config, db: t.db, live: t.live, jobs });
  await app.ready();
  cookie = await signIn(app, 'acmeadmin');
});
afterAll(async () => {
  await app.close();
  await jobs.stop();
  await t.close();
});

describe('Run now with a job queue', () => {
  it('queues the run and answers at once; a second click queues nothing more', async () => {
    const first = await runNow();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().runs[0]).toMatchObject({ kind: 'manual', finishedAt: null, filesRemoved: 0 });
    expect(stored(dueKey)).toBe(true);
    const second = await runNow();
    expect(second.statusCode).toBe(200);
    expect(await runsOf()).toHaveLength(1);
  });

  it('is run once by a worker, and the page shows its record', async () => {
    await registerQueues(jobs, t.db, t.config, true);
    await until(async () => (await runsOf()).every((r) => r.finished_at !== null));
    const runs = await runsOf();
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ actor: 'acmeadmin', files_removed: 1, request_numbers: [due] });
    expect(stored(dueKey)).toBe(false);
    const page = await app.inject({ method: 'GET', url: '/admin/retention', headers: { ...XHR, cookie } });
    expect(page.json().runs[0]).toMatchObject({ kind: 'manual', filesRemoved: 1, requestNumbers: [due] });
    expect(page.json().runs[0].finishedAt).not.toBeNull();
    // Done, a click queues a new run.
    await runNow();
    await until(async () => {
      const all = await runsOf();
      return all.length === 2 && all.every((r) => r.finished_at !== null);
    });
  });

  it('lets only administrators follow the retention topic', () => {
    const following = JSON.stringify({ $type: 'following', topic: 'retention' });
    const admin = { id: 'a', permissions: ['retention:manage', 'inbox'] };
    const handler = { id: 'h', permissions: ['inbox'] };
    expect(followedTopic(admin as never, following)).toBe('retention');
    expect(followedTopic(handler as never, following)).toBeNull();
  });
});
