import pg from 'pg';
import type { Db } from '../db/database.js';
import type { FileStorage } from '../files/storage.js';
import { SerialPass } from '../jobs/serialPass.js';
import { type MailTransport, sendDueMail } from './sender.js';

// Keeps the outbox moving: sends whenever a message is committed (NOTIFY from the outbox trigger)
// and every few seconds for retries that have come due.

const SWEEP_MS = 5000;

interface Logger {
  warn(msg: string): void;
}

export class MailWorker {
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly passes = new SerialPass(() => this.pass());

  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly from: string,
    private readonly log: Logger,
    /** Where attachments are read from; mail with attachments waits in the outbox without it. */
    private readonly storage?: FileStorage,
  ) {}

  async start(databaseUrl: string): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl });
    client.on('notification', () => this.kick());
    client.on('error', (error) => this.log.warn(`mail listener: ${error.message}`));
    await client.connect();
    await client.query('listen mail_outbox');
    this.listener = client;
    this.timer = setInterval(() => this.kick(), SWEEP_MS);
    this.timer.unref();
    this.kick();
  }

  /** Runs a sending pass now, or right after the one in progress. */
  kick(): void {
    this.passes.kick();
  }

  private async pass(): Promise<void> {
    try {
      while (
        (await sendDueMail(this.db, this.transport, this.from, 20, this.storage)) > 0 &&
        !this.passes.stopped
      ) {}
    } catch (error) {
      this.log.warn(`mail sending failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.passes.stop();
    await this.listener?.end().catch(() => undefined);
    this.transport.close();
  }
}
