import { Kysely, Migrator, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';
import { StatementsPlugin } from './writes.js';

export type Db = Kysely<Database>;
/** A use case takes either the database or an open transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
/**
 * An open transaction, for a function whose work only holds inside the caller's: a row lock
 * (FOR UPDATE, an advisory xact lock) taken on the bare database is released at once.
 */
export type Trx = Transaction<Database>;

/** Narrows to the open transaction `db` is (Kysely's `isTransaction` alone does not narrow the type). */
export const isTrx = (db: DbOrTrx): db is Trx => db.isTransaction;

// bigint ids come back as strings (no precision loss); timestamps as Date.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export function createDb(url: string, poolSize: number): { db: Db; pool: pg.Pool } {
  // A bounded wait for a connection: while the database is down (or every connection is busy for
  // long) a request fails within seconds with 503 instead of hanging.
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // A client that loses its server (database restart, network cut) must not crash the process: the
  // pool listens on idle clients, but a checked-out one between two queries of a transaction has no
  // listener, and an 'error' event without one is thrown. Its query fails anyway, and the pool drops
  // the broken client when it is released.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return {
    db: new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new StatementsPlugin()],
    }),
    pool,
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
