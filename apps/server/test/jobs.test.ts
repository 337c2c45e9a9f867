import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobQueue } from '../src/jobs/queue.js';
import { createTestContext, type TestContext, until } from './helpers.js';

// Two job workers on one database, as two instances would run: every job is done exactly once, and a
// job sent in a transaction that rolls back never exists.

let t: TestContext;
let first: JobQueue;
let second: JobQueue;
const log = { warn: () => undefined };

beforeAll(async () => {
  t = await createTestContext();
  first = await JobQueue.start(t.url, log);
  second = await JobQueue.start(t.url, log);
});
afterAll(async () => {
  await first.stop();
  await second.stop();
  await t.close();
});

describe('the job queue', () => {
  it('does each job once with two instances working the same queue', async () => {
    const done: string[] = [];
    const by = new Set<string>();
    for (const [name, queue] of [
      ['first', first],
      ['second', second],
    ] as const) {
      await queue.work<{ n: number }>({
        name: 'test-once',
        handler: async (data) => {
          done.push(String(data.n));
          by.add(name);
        },
      });
    }
    for (let n = 0; n < 40; n++) await first.send(t.db, 'test-once', { n });
    await until(() => done.length >= 40);
    await new Promise((r) => setTimeout(r, 500));
    expect(done.sort()).toEqual(Array.from({ length: 40 }, (_, n) => String(n)).sort());
  });

  it('retries a failing job and sends nothing from a rolled-back transaction', async () => {
    let attempts = 0;
    const seen: string[] = [];
    await first.work<{ tag: string }>({
      name: 'test-retry',
      retryDelaySeconds: 1,
      handler: async (data) => {
        seen.push(data.tag);
        if (data.tag === 'flaky' && ++attempts < 2) throw new Error('first attempt fails');
      },
    });
    await expect(
      t.db.transaction().execute(async (trx) => {
        await first.send(trx, 'test-retry', { tag: 'rolled-back' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await t.db.transaction().execute(async (trx) => {
      await first.send(trx, 'test-retry', { tag: 'flaky' });
    });
    await until(() => seen.filter((s) => s === 'flaky').length >= 2);
    expect(seen.filter((s) => s === 'flaky')).toHaveLength(2);
    expect(seen).not.toContain('rolled-back');
  });
});
