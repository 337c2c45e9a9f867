import type { Db } from '../../db/database.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { REASSIGN_QUEUE, type ReassignReason, runReassignment } from '../assignment/index.js';
import type { RecipientLinkConfig } from '../recipientAccess/index.js';
import { WorkflowEngine } from './engine.js';

interface Logger {
  warn(msg: string): void;
}

/**
 * Declares the assignment queue on every instance (any may send to it); on instances running the
 * jobs service, also works it and starts the workflow engine. Answers how to stop them.
 */
export async function startWorkflow(
  jobs: JobQueue,
  db: Db,
  live: LiveHub,
  work: boolean,
  log: Logger,
  config: RecipientLinkConfig,
): Promise<() => Promise<void>> {
  const queue = { name: REASSIGN_QUEUE, retryLimit: 5, retryDelaySeconds: 5 };
  if (!work) {
    await jobs.declare(queue.name, queue);
    return async () => undefined;
  }
  await jobs.work<{ userId: string; reason?: ReassignReason }>({
    ...queue,
    handler: async (data) => {
      await db.transaction().execute((trx) => runReassignment(trx, { live }, data.userId, data.reason));
    },
  });
  const engine = new WorkflowEngine(db, { live, log, config });
  await engine.start();
  return () => engine.stop();
}
