import { CompiledQuery } from 'kysely';
import { type Job, PgBoss, type SendOptions } from 'pg-boss';
import type { DbOrTrx } from '../db/database.js';

// Background jobs on the application's own database (pg-boss). A job is sent in the transaction of
// the change that causes it, so it exists exactly when the change committed; pg-boss hands each job
// to one worker of one instance (SKIP LOCKED), retries failures with backoff, and survives restarts.

export type JobHandler<T extends object> = (data: T, job: Job<T>) => Promise<void>;

export interface QueueDefinition<T extends object> {
  name: string;
  handler: JobHandler<T>;
  retryLimit?: number;
  retryDelaySeconds?: number;
}

interface Logger {
  warn(msg: string): void;
}

/** Runs pg-boss statements on a Kysely connection or open transaction. */
function onConnection(db: DbOrTrx) {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows as unknown[] };
    },
  };
}

export class JobQueue {
  private constructor(private readonly boss: PgBoss) {}

  static async start(connectionString: string, log: Logger): Promise<JobQueue> {
    // LISTEN/NOTIFY wakes a worker as soon as a job is committed; polling stays as the backstop.
    const boss = new PgBoss({ connectionString, max: 4, useListenNotify: true });
    boss.on('error', (error) =>
      log.warn(`job queue: ${error instanceof Error ? error.message : String(error)}`),
    );
    await boss.start();
    return new JobQueue(boss);
  }

  /** Creates the queue (idempotent) so jobs can be sent to it, whether or not this instance works it. */
  async declare(
    name: string,
    options: { retryLimit?: number; retryDelaySeconds?: number } = {},
  ): Promise<void> {
    await this.boss.createQueue(name, {
      retryLimit: options.retryLimit ?? 5,
      retryDelay: options.retryDelaySeconds ?? 5,
      retryBackoff: true,
      notify: true,
    });
  }

  /** Declares the queue and works its jobs on this instance. */
  async work<T extends object>(definition: QueueDefinition<T>): Promise<void> {
    await this.declare(definition.name, definition);
    // One job per fetch, so a failure retries only that job; two at a time per instance. Retries and
    // delayed jobs raise no NOTIFY, so the backstop poll decides how soon they run.
    await this.boss.work<T>(
      definition.name,
      { batchSize: 1, localConcurrency: 2, pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 2 },
      async (jobs) => {
        for (const job of jobs) await definition.handler(job.data, job);
      },
    );
  }

  /**
   * Sends a job to the queue on a cron schedule (UTC). pg-boss keeps the schedule in the database
   * and makes one job per tick however many instances run, so calling this on every start is safe.
   */
  async schedule(name: string, cron: string): Promise<void> {
    await this.boss.schedule(name, cron);
  }

  /** Sends a job; pass the transaction of the change that causes it. */
  async send<T extends object>(db: DbOrTrx, name: string, data: T, options: Omit<SendOptions, 'db'> = {}) {
    return this.boss.send(name, data, { ...options, db: onConnection(db) });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
