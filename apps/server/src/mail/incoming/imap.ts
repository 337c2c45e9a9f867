import { ImapFlow } from 'imapflow';
import { type IncomingDeps, receiveMessage } from './receive.js';
import * as repo from './repository.js';

// Optional IMAP polling of the inbox (IMAP_URL, with the smtp service). Every IMAP_POLL_SECONDS one
// instance (an advisory lock, so several running the smtp service never read one mailbox at once)
// logs in, reads the messages it has not stored yet and hands each raw message to the same receive
// pipeline as the SMTP listener, so matching, the inbox, attachments and flags work identically.
//
// Exactly once: the highest stored UID is remembered per mailbox (with its UIDVALIDITY) in the
// transaction that stores the message; only then is the message marked \Seen on the server, which
// is a courtesy for people looking at the mailbox, not what we rely on. A crash between storing and
// marking therefore re-reads nothing, and a message seen again anyway (a new UIDVALIDITY, the same
// mail in twice) is recognised by its Message-ID. The first poll of a mailbox, and the first after
// its UIDs were renumbered, take only its unseen messages, so pointing IMAP_URL at a mailbox with
// years of read mail does not import them. Errors are logged and retried at the next poll.

export interface ImapSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string;
  pass: string;
  mailbox: string;
  pollSeconds: number;
}

export interface ImapLimits {
  /** A larger message is kept (up to keepBytes) and flagged, unread, as the SMTP listener does. */
  maxMessageBytes: number;
  keepBytes: number;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface PollResult {
  /** Another instance held the lock: this one did not poll. */
  skipped: boolean;
  stored: number;
  duplicates: number;
}

/** Messages handled in one poll; the rest wait for the next, so one poll never runs for hours. */
const BATCH = 200;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export class ImapPoller {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = false;
  /** The mailbox as remembered in imap_mailboxes: server, user and folder, never the password. */
  readonly key: string;

  constructor(
    private readonly deps: IncomingDeps,
    private readonly settings: ImapSettings,
    private readonly limits: ImapLimits,
    private readonly log: Logger,
  ) {
    this.key = `imap://${settings.user}@${settings.host}:${settings.port}/${settings.mailbox}`;
  }

  start(): void {
    this.log.info(`Mail in: polling ${this.key} every ${this.settings.pollSeconds} s`);
    this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.pollOnce()
        .then((result) => this.schedule(result.stored + result.duplicates >= BATCH ? 0 : this.interval()))
        .catch(() => this.schedule(this.interval()));
    }, ms);
    this.timer.unref();
  }

  private interval(): number {
    return this.settings.pollSeconds * 1000;
  }

  /** One poll now. Never throws: a failure is logged, recorded on the mailbox and retried later. */
  async pollOnce(): Promise<PollResult> {
    try {
      const result = await repo.withImapLock(this.deps.db, () => this.read());
      return result ?? { skipped: true, stored: 0, duplicates: 0 };
    } catch (error) {
      this.log.warn(`mail in: polling ${this.key} failed: ${messageOf(error)}`);
      await repo.recordPoll(this.deps.db, this.key, messageOf(error).slice(0, 1000)).catch(() => undefined);
      return { skipped: false, stored: 0, duplicates: 0 };
    }
  }

  private async read(): Promise<PollResult> {
    const { host, port, secure, user, pass, mailbox } = this.settings;
    const client = new ImapFlow({
      host,
      port,
      secure,
      auth: { user, pass },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 5 * 60_000,
    });
    // An unanswered 'error' event would end the process; the failing call throws anyway.
    client.on('error', (error: unknown) => this.log.warn(`mail in: IMAP ${this.key}: ${messageOf(error)}`));
    await client.connect();
    try {
      const opened = await client.mailboxOpen(mailbox);
      const uidValidity = String(opened.uidValidity);
      let state = await repo.findMailboxState(this.deps.db, this.key);
      if (state?.uidValidity !== uidValidity) {
        await repo.resetMailboxState(this.deps.db, this.key, uidValidity);
        state = { uidValidity, lastUid: 0 };
      }
      const first = state.lastUid === 0;
      const found = await client.search(first ? { seen: false } : { uid: `${state.lastUid + 1}:*` }, {
        uid: true,
      });
      // "n:*" always names the newest message, even below n: only higher UIDs are new. The first
      // poll takes every unseen message at once: what it leaves is old mail, skipped below.
      const uids = (found || [])
        .filter((uid) => uid > state.lastUid)
        .sort((a, b) => a - b)
        .slice(0, first ? undefined : BATCH);
      const result: PollResult = { skipped: false, stored: 0, duplicates: 0 };
      for (const uid of uids) {
        if (this.stopped) break;
        const stored = await this.take(client, uid);
        if (stored === 'stored') result.stored++;
        if (stored === 'duplicate') result.duplicates++;
      }
      // Everything that was in the mailbox when it was opened has now been looked at.
      if (first && !this.stopped && opened.uidNext)
        await repo.advanceLastUid(this.deps.db, this.key, opened.uidNext - 1);
      await repo.recordPoll(this.deps.db, this.key, null);
      return result;
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  /** Stores one message (or recognises it), remembers its UID, then marks it \Seen. */
  private async take(client: ImapFlow, uid: number): Promise<'stored' | 'duplicate' | 'gone'> {
    const message = await client.fetchOne(
      String(uid),
      { uid: true, size: true, source: { start: 0, maxLength: this.limits.keepBytes } },
      { uid: true },
    );
    if (message === false || !message.source) {
      // Expunged between the search and the fetch.
      await repo.advanceLastUid(this.deps.db, this.key, uid);
      return 'gone';
    }
    const size = message.size ?? message.source.length;
    const mb = Math.floor(this.limits.maxMessageBytes / 1048576);
    const oversizeReason =
      size > this.limits.maxMessageBytes
        ? `The message is larger than the limit of ${mb} MB (${size} bytes)${
            size > message.source.length ? `; only the first ${message.source.length} bytes were kept` : ''
          }; it was kept unread.`
        : undefined;
    const received = await receiveMessage(this.deps, message.source, {
      oversizeReason,
      inTransaction: (trx) => repo.advanceLastUid(trx, this.key, uid),
    });
    // A repeat stored nothing, so its UID was not remembered in a storing transaction.
    if (received.duplicate) await repo.advanceLastUid(this.deps.db, this.key, uid);
    // imapflow answers false when the server refused; a dropped connection throws.
    const marked = await client
      .messageFlagsAdd(String(uid), ['\\Seen'], { uid: true })
      .catch((error: unknown) => messageOf(error));
    if (marked !== true)
      this.log.warn(
        `mail in: could not mark UID ${uid} of ${this.key} as seen${marked ? `: ${marked}` : ''}`,
      );
    return received.duplicate ? 'duplicate' : 'stored';
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }
}
