import type { JobQueue } from '../../jobs/queue.js';
import { publishTopic } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import * as runs from './runsRepository.js';
import { RETENTION_TOPIC, type RetentionContext, runRetention } from './service.js';

// An administrator's Run now (issue 36). A run may take minutes (files on S3, thousands of
// requests), longer than an HTTP request should: it is queued as a job of the retention queue in
// the transaction that records it, pg-boss hands it to one worker of one instance, and the page
// follows the `retention` topic, which each finished run publishes, to show the run's record when
// it is done. A second click while the administrator's run is queued or running queues nothing
// more. Without a job queue (tests that need none) the run happens in the request, as before.

export const RETENTION_QUEUE = 'retention';

/** A job of the retention queue: empty for the daily run, a queued Run now's record otherwise. */
export interface RetentionJob {
  runId?: string;
  actor?: string | null;
  within?: string[];
}

/** What a job of the retention queue does. */
export async function runRetentionJob(ctx: RetentionContext, job: RetentionJob): Promise<void> {
  if (job.runId)
    await runRetention(ctx, {
      kind: 'manual',
      actor: job.actor ?? null,
      within: job.within ?? [],
      runId: job.runId,
    });
  else await runRetention(ctx, { kind: 'scheduled', actor: null, within: ['/'] });
}

export async function runNow(
  ctx: RetentionContext,
  jobs: JobQueue | undefined,
  actor: Actor,
  within: string[],
): Promise<void> {
  if (!jobs) {
    await runRetention(ctx, { kind: 'manual', actor: actor.id, within });
    return;
  }
  await ctx.db.transaction().execute(async (trx) => {
    // Two clicks at once: the second waits for the first and then finds its run queued.
    await runs.lockRunNow(trx, actor.id);
    if (await runs.hasPendingRunOf(trx, actor.id)) return;
    const runId = await runs.insertRun(trx, { kind: 'manual', actor: actor.id, scopes: [] });
    await jobs.send<RetentionJob>(trx, RETENTION_QUEUE, { runId, actor: actor.id, within });
    await publishTopic(trx, RETENTION_TOPIC);
  });
}
