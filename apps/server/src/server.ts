import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { createDb, type Db, migrateToLatest } from './db/database.js';
import { type EmbeddedDatabase, startEmbeddedPostgres } from './db/embedded.js';
import { purgeRateEvents } from './db/rateLimit.js';
import { type SeededUser, seedIfEmpty } from './db/seed.js';
import { seedDemoAccessLog } from './db/seedAccessLog.js';
import { seedDemoHistory } from './db/seedHistory.js';
import { progressDemoRequests } from './db/seedProgress.js';
import { purgeExpired } from './features/auth/service.js';
import { startWorkflow } from './features/workflow/start.js';
import { createS3Storage } from './files/s3Storage.js';
import { createLocalStorage } from './files/storage.js';
import { registerQueues } from './jobs/handlers.js';
import { JobQueue } from './jobs/queue.js';
import { LiveHub } from './live/hub.js';
import { ImapPoller } from './mail/incoming/imap.js';
import { type SmtpListener, startSmtpListener } from './mail/incoming/listener.js';
import { createSmtpTransport } from './mail/sender.js';
import { MailWorker } from './mail/worker.js';
import { withRecipientLinkKey } from './recipientLinkKey.js';

// Everything one process runs: the database (embedded unless DATABASE_URL is set), migrations, the
// seed, the web app, live fan-out and housekeeping. Used by main.ts and by tests that need a whole
// instance.

export interface RunningServer {
  app: FastifyInstance;
  db: Db;
  url: string;
  seeded: SeededUser[];
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** Thrown when a stop was asked for while the instance was still starting. */
export class StartAborted extends Error {
  constructor() {
    super('stopped while starting');
  }
}

/**
 * Starts the instance. A stop asked for while it starts (`signal`) is honoured between steps: what
 * was started so far is stopped, down to the embedded database, and StartAborted is thrown.
 */
export async function startServer(
  given: Config,
  log: Logger,
  options: { signal?: AbortSignal } = {},
): Promise<RunningServer> {
  // The key of the recipient's links: RECIPIENT_LINK_KEY, else the data directory's (made once).
  const config = await withRecipientLinkKey(given, log);
  const step = () => {
    if (options.signal?.aborted) throw new StartAborted();
  };
  let embedded: EmbeddedDatabase | undefined;
  let pool: pg.Pool | undefined;
  let live: LiveHub | undefined;
  let jobs: JobQueue | undefined;
  let mail: MailWorker | undefined;
  let mailIn: SmtpListener | undefined;
  let imap: ImapPoller | undefined;
  let app: FastifyInstance | undefined;
  let housekeeping: NodeJS.Timeout | undefined;
  let stopWorkflow: (() => Promise<void>) | undefined;
  const stop = async () => {
    if (housekeeping) clearInterval(housekeeping);
    await stopWorkflow?.();
    // Tell the load balancer first (/readyz answers 503) and give it time to notice; then stop
    // taking requests and finish those in flight, then close sockets, then the database.
    if (app) {
      app.draining = true;
      if (config.operations.drainSeconds > 0)
        await new Promise((resolve) => setTimeout(resolve, config.operations.drainSeconds * 1000));
    }
    await mailIn?.close();
    await imap?.stop();
    await app?.close();
    await mail?.stop();
    await jobs?.stop();
    await live?.close();
    await pool?.end();
    await embedded?.stop();
  };
  try {
    step();
    if (!config.databaseUrl) embedded = await startEmbeddedPostgres(config.dataDir, log);
    step();
    const url = config.databaseUrl ?? embedded!.url;
    const created = createDb(url, config.dbPoolSize);
    pool = created.pool;
    const db = created.db;
    const applied = await migrateToLatest(db);
    if (applied.length > 0) log.info(`Applied migrations: ${applied.join(', ')}`);
    step();
    const seeded = await seedIfEmpty(db, config);
    step();
    live = new LiveHub(url, {
      warn: (o, m) => log.warn(`${m} ${String(o)}`),
      error: (o, m) => log.warn(`${m} ${String(o)}`),
    });
    await live.start();
    // Every instance can send jobs; only those running the jobs service work them.
    jobs = await JobQueue.start(url, log);
    await registerQueues(jobs, db, config, config.services.includes('jobs'));
    // The workflow engine reacts to committed events; it runs where the jobs service does.
    stopWorkflow = await startWorkflow(jobs, db, live, config.services.includes('jobs'), log, config);
    app = await buildApp({ config, db, live, jobs, pool });
    // /readyz says 503 until the demo is seeded and every service runs.
    app.starting = true;
    step();
    await app.listen({ port: config.port, host: config.host });
    // The mail sender reads attachments (request letters, remittance advice) from the file storage;
    // mail in stores raw messages and attachments there.
    const storage = config.files.s3 ? createS3Storage(config.files.s3) : createLocalStorage(config.files.dir);
    // A new demo database: its requests are worked through the app itself, so they show every state.
    const handler = seeded.find((u) => u.id === 'handler');
    if (config.seedDemo && handler && config.services.includes('web'))
      await progressDemoRequests(app, { db, storage, live }, handler.password);
    step();
    // Then a year of history behind them, so reports, charts and KPIs have something to show.
    if (config.seedDemo && handler) {
      await seedDemoHistory(db, storage);
      // Who read those requests over that year, read off the same history.
      await seedDemoAccessLog(db);
    }
    step();
    // Without SMTP_URL mail stays in the outbox, where administrators can read it.
    if (config.services.includes('jobs') && config.mail.smtpUrl) {
      mail = new MailWorker(db, createSmtpTransport(config.mail.smtpUrl), config.mail.from, log, storage);
      await mail.start(url);
    }
    // Mail in: the SMTP listener runs where the smtp service is and a port is configured.
    const keepBytes = Math.max(config.files.maxBytes, config.mailIn.maxMessageBytes);
    if (config.services.includes('smtp') && config.mailIn.listenPort !== undefined) {
      mailIn = await startSmtpListener(
        { db, storage, live },
        {
          port: config.mailIn.listenPort,
          host: config.host,
          inboxAddress: config.mailIn.inboxAddress,
          maxMessageBytes: config.mailIn.maxMessageBytes,
          keepBytes,
        },
        log,
      );
    }
    // Optional IMAP polling feeds the same pipeline; one instance at a time reads the mailbox.
    if (config.services.includes('smtp') && config.mailIn.imap) {
      imap = new ImapPoller(
        { db, storage, live },
        config.mailIn.imap,
        { maxMessageBytes: config.mailIn.maxMessageBytes, keepBytes },
        log,
      );
      imap.start();
    }
    if (config.services.includes('jobs')) {
      housekeeping = setInterval(() => {
        void purgeExpired(db, config).catch(() => undefined);
        void purgeRateEvents(db, 86_400).catch(() => undefined);
      }, 10 * 60_000);
      housekeeping.unref();
    }
    step();
    app.starting = false;
    return { app, db, url, seeded, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
