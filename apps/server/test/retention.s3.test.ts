import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_QUEUE, registerQueues } from '../src/jobs/handlers.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createUser, signIn, type TestContext, until } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { monthsAgo, requestFile, setRetention } from './support/retention.js';
import { type S3World, startS3World } from './support/s3.js';

// Retention's daily job (issue 36) with files on S3 (s3rver on loopback): the job removes the due
// request's objects from the bucket, and two jobs at once (two instances) do it once.

let t: TestContext;
let s3: S3World;
let jobs: JobQueue;
let bucketUrl: string;

beforeAll(async () => {
  s3 = await startS3World('dossier-retention-s3-');
  ({ t, bucketUrl } = s3);
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await registerQueues(jobs, t.db, t.config, true);
});
afterAll(async () => {
  await jobs.stop();
  await s3.close();
});

/** Whether the object is in the bucket (s3rver answers unsigned reads of its objects). */
const inBucket = (key: string) =>
  fs
    .readdirSync(path.join(s3.dir, 'dossier-files'), { recursive: true })
    .some((f) => String(f).includes(key));

describe('retention job on S3', () => {
  it('removes the due files from the bucket once, however many jobs run', async () => {
    await setRetention(t, '/org/acme/', { deleteFilesAfterMonths: 12, deIdentifyAfterMonths: null });
    const cookie = await signIn(t.app, 'handler');
    const due = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      status: 'closed',
      closedAt: monthsAgo(20),
    });
    const kept = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      status: 'closed',
      closedAt: monthsAgo(2),
    });
    const dueKey = await requestFile(t, cookie, due);
    const keptKey = await requestFile(t, cookie, kept);
    expect(bucketUrl).toContain('dossier-files');
    expect(inBucket(dueKey)).toBe(true);
    await Promise.all([jobs.send(t.db, RETENTION_QUEUE, {}), jobs.send(t.db, RETENTION_QUEUE, {})]);
    await until(async () => {
      const runs = await t.db.selectFrom('retention_runs').select('finished_at').execute();
      return runs.length === 2 && runs.every((r) => r.finished_at !== null);
    });
    expect(inBucket(dueKey)).toBe(false);
    expect(inBucket(keptKey)).toBe(true);
    const runs = await t.db.selectFrom('retention_runs').selectAll().execute();
    expect(runs.map((r) => r.kind)).toEqual(['scheduled', 'scheduled']);
    expect(runs.reduce((s, r) => s + r.files_removed, 0)).toBe(1);
    const file = await t.db
      .selectFrom('files')
      .select('removed_at')
      .where('key', '=', dueKey)
      .executeTakeFirstOrThrow();
    expect(file.removed_at).not.toBeNull();
  });
});
