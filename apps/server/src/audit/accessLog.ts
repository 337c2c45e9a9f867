import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { Db, Trx } from '../db/database.js';
import type { JsonObject } from '../db/jsonColumns.js';

// The access log (issue 36): one row per read of a request's personal data. A read must stay cheap
// (at most 0.2 ms on the p95 of the request view), so a read only queues its entry; the queue goes
// to the database as one INSERT every FLUSH_MS (or at MAX_BATCH entries), off the read's path. The
// cost of an entry is mostly the statement's, not the row's (bench/README.md: 68 to 73 µs of CPU an
// entry in batches of 9, 15 to 16 µs in a second's batch of about 175), so the flushes are a second
// apart, and the INSERT takes its rows as ten arrays through unnest (a constant text with ten
// parameters, not ten a row). What this costs: entries of the last second die with a killed process
// (a graceful stop writes them, see close()), and another instance's reads of the last second are
// not yet in what a reader sees (this instance's are: a read of the log flushes first, see
// flush()); a failed write keeps its entries for the next flush, up to MAX_PENDING, and says so in
// the log. The table refuses UPDATE, DELETE and TRUNCATE (migration 20261202_7001).

export type AccessWhat = 'request' | 'history' | 'preview' | 'file' | 'export';
export type AccessVia = 'page' | 'api' | 'export';

/** Who read: a person, an API client (its service user id), a recipient's access (the portal). */
export type AccessReader = { userId: string } | { apiClient: string } | { recipientAccessId: string };

export interface AccessEntry {
  reader: AccessReader;
  what: AccessWhat;
  via: AccessVia;
  requestNumber?: string | null | undefined;
  fileKey?: string | null | undefined;
  /** An export's filter and row count; never the rows. */
  detail?: JsonObject | undefined;
  address?: string | undefined;
}

interface Logger {
  error(object: object, message: string): void;
}

/** The reader of an actor: a person, or the API client whose key the call used. */
export function readerOf(actor: { id: string; viaApi?: true | undefined }): AccessReader {
  return actor.viaApi ? { apiClient: actor.id } : { userId: actor.id };
}

/** How often the queue is written (exported for the bench, which measures an entry at this rate). */
export const FLUSH_MS = 1000;
const MAX_BATCH = 1000;
const MAX_PENDING = 50_000;

const open = new Set<AccessLog>();

export type AccessRow = {
  at: Date;
  user_id: string | null;
  api_client: string | null;
  recipient_access_id: string | null;
  request_number: string | null;
  what: AccessWhat;
  via: AccessVia;
  file_key: string | null;
  detail: string | null;
  address: string | null;
};

function toRow(entry: AccessEntry): AccessRow {
  const r = entry.reader;
  return {
    at: new Date(),
    user_id: 'userId' in r ? r.userId : null,
    api_client: 'apiClient' in r ? r.apiClient : null,
    recipient_access_id: 'recipientAccessId' in r ? r.recipientAccessId : null,
    request_number: entry.requestNumber ?? null,
    what: entry.what,
    via: entry.via,
    file_key: entry.fileKey ?? null,
    detail: entry.detail ? JSON.stringify(entry.detail) : null,
    // Fastify's request.ip; anything that is not an address (a test's injected request) is left out.
    address: entry.address && isIP(entry.address) ? entry.address : null,
  };
}

const column = <K extends keyof AccessRow>(rows: AccessRow[], key: K) => rows.map((r) => r[key]);

/** Writes rows as one statement of ten arrays, whatever their number (the statement is the cost). */
async function insertRows(db: Db, rows: AccessRow[]): Promise<void> {
  await sql`insert into access_log
      (at, user_id, api_client, recipient_access_id, request_number, what, via, file_key, detail, address)
    select * from unnest(${column(rows, 'at')}::timestamptz[], ${column(rows, 'user_id')}::text[],
      ${column(rows, 'api_client')}::text[], ${column(rows, 'recipient_access_id')}::text[],
      ${column(rows, 'request_number')}::text[], ${column(rows, 'what')}::text[], ${column(rows, 'via')}::text[],
      ${column(rows, 'file_key')}::text[], ${column(rows, 'detail')}::jsonb[], ${column(rows, 'address')}::inet[])`.execute(
    db,
  );
}

export class AccessLog {
  private pending: AccessRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    public enabled: boolean,
    private readonly log: Logger = console,
    // A test of the queue alone gives its own.
    private readonly insert: (db: Db, rows: AccessRow[]) => Promise<void> = insertRows,
  ) {
    open.add(this);
  }

  record(entry: AccessEntry): void {
    if (!this.enabled) return;
    this.pending.push(toRow(entry));
    if (this.pending.length >= MAX_BATCH) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), FLUSH_MS);
      this.timer.unref();
    }
  }

  /**
   * Writes what is queued; resolves once every entry queued before the call is written (or failed).
   * A read of the log calls it first, so it shows this instance's reads up to the moment.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending.splice(0);
    if (batch.length === 0) return this.writing;
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  private async write(batch: AccessRow[]): Promise<void> {
    try {
      for (let i = 0; i < batch.length; i += MAX_BATCH)
        await this.insert(this.db, batch.slice(i, i + MAX_BATCH));
    } catch (error) {
      const kept = Math.max(0, Math.min(batch.length, MAX_PENDING - this.pending.length));
      this.pending.unshift(...batch.slice(batch.length - kept));
      this.log.error({ err: error, entries: batch.length, kept }, 'access log: entries not written yet');
      if (!this.timer && this.pending.length > 0) {
        this.timer = setTimeout(() => void this.flush(), 1000);
        this.timer.unref();
      }
    }
  }

  async close(): Promise<void> {
    await this.flush();
    open.delete(this);
  }
}

/**
 * Turns the logging of every access log of this process on or off: the bench measures the request
 * view with and without it in one run (`npm run bench`, request-view-no-access-log). ACCESS_LOG
 * sets where an instance starts.
 */
export function setAccessLogging(on: boolean): void {
  for (const log of open) log.enabled = on;
}

/** Writes what every open access log has queued (tests, before they count entries). */
export async function flushAccessLogs(): Promise<void> {
  await Promise.all([...open].map((l) => l.flush()));
}

export const ACCESS_LOG_MONTHS_QUEUE = 'access-log-months';

/** Keeps the next months' partitions present (the daily job; the default partition is the net). */
export async function ensureAccessLogMonths(db: Db, monthsAhead = 3): Promise<number> {
  const { rows } = await sql<{ made: number }>`select access_log_ensure_months(
      now()::date, (now() + make_interval(months => ${monthsAhead}))::date) as made`.execute(db);
  return rows[0]?.made ?? 0;
}

/**
 * The access log's months (partitions) lying entirely before the cutoff, oldest first, and
 * 'access_log_default' when the default partition holds entries before it (migration 20261204_1001).
 */
export async function accessLogMonthsBefore(db: Db | Trx, cutoff: Date): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select name from (
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'access_log'::regclass and c.relname ~ '^access_log_\\d{4}_\\d{2}$'
        and (to_date(substring(c.relname from 12), 'YYYY_MM') + interval '1 month')::timestamptz <= ${cutoff}
      union all
      select 'access_log_default' where exists (select 1 from access_log_default where at < ${cutoff})
    ) due order by name = 'access_log_default', name`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Drops the months entirely before the cutoff, and the default partition's entries before it
 * (migrations 20261203_3001 and 20261204_1001: the one path that removes entries, refusing a cutoff
 * within the last 12 months); answers the partitions' names.
 */
export async function dropAccessLogMonthsBefore(db: Db | Trx, cutoff: Date): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select access_log_drop_months_before(${cutoff}) as name`.execute(db);
  return rows.map((r) => r.name);
}
