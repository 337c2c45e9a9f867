import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_QUEUE, registerQueues } from '../src/jobs/handlers.js';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, createUser, signIn, type TestContext, until } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { monthsAgo, requestFile, setRetention } from './support/retention.js';

// Retention's daily job (issue 36) with files on S3 (s3rver on loopback): the job removes the due
// request's objects from the bucket, and two jobs at once (two instances) do it once.

let t: TestContext;
let s3: S3rver;
let jobs: JobQueue;
let bucketUrl: string;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dossier-retention-s3-'));

beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: 'dossier-files', configs: [] }],
  });
  const { port } = (await s3.run()) as { port: number };
  bucketUrl = `http://127.0.0.1:${port}/dossier-files`;
  t = await createTestContext({
    files: {
      dir: path.join(dir, 'unused'),
      maxBytes: 1024 * 1024,
      s3: {
        bucket: 'dossier-files',
        endpoint: `http://127.0.0.1:${port}`,
        region: 'us-east-1',
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
      },
    },
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  jobs = await JobQueue.start(t.url, { warn: () => undefined });
  await registerQueues(jobs, t.db, t.config, true);
});
afterAll(async () => {
  await jobs.stop();
  await t.close();
  await s3.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Whether the object is in the bucket (s3rver answers unsigned reads of its objects). */
const inBucket = (key: string) =>
  fs.readdirSync(path.join(dir, 'dossier-files'), { recursive: true }).some((f) => String(f).includes(key));

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
