import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import * as tar from 'tar';

// A backup is one .tar.gz: manifest.json (format, migration level, tables with their columns and
// row counts, sequence values), db/<table>.copy (each table in PostgreSQL's COPY text format, read
// in one repeatable-read snapshot, so the tables agree with each other while the app keeps working)
// and files/ (the stored files). No pg_dump is needed, so the same code serves the embedded server
// and any external PostgreSQL whatever its version.

export const BACKUP_FORMAT = 'dossier-backup';

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  migration: string;
  tables: { name: string; columns: string[]; rows: number }[];
  sequences: { name: string; value: string | null }[];
  files: number;
}

/** Tables that the migrator owns; a restore lets it write them. */
export const MIGRATOR_TABLES = ['kysely_migration', 'kysely_migration_lock'];

export async function writeBackup(
  file: string,
  opts: { databaseUrl: string; filesDir: string },
): Promise<Manifest> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-backup-'));
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const migration = (await client.query<{ name: string }>('select max(name) as name from kysely_migration'))
      .rows[0]?.name;
    if (!migration) throw new Error('The database has no migrations applied: nothing to back up.');
    const tables = await listTables(client);
    await fs.mkdir(path.join(work, 'db'));
    const manifestTables: Manifest['tables'] = [];
    for (const { name, columns } of tables) {
      const list = columns.map((c) => pg.escapeIdentifier(c)).join(', ');
      // COPY of a query, as COPY of a partitioned table itself is refused.
      const copy = client.query(
        copyTo(`copy (select ${list} from public.${pg.escapeIdentifier(name)}) to stdout`),
      );
      await pipeline(copy, (await fs.open(path.join(work, 'db', `${name}.copy`), 'w')).createWriteStream());
      manifestTables.push({ name, columns, rows: copy.rowCount ?? 0 });
    }
    const sequences = (
      await client.query<{ name: string; value: string | null }>(
        `select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by 1`,
      )
    ).rows;
    await client.query('commit');

    // Stored files are written once and never changed, so copying after the snapshot loses nothing
    // the database refers to.
    const filesDir = path.join(work, 'files');
    await fs.mkdir(filesDir);
    if (await exists(opts.filesDir)) await fs.cp(opts.filesDir, filesDir, { recursive: true });
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      migration,
      tables: manifestTables,
      sequences,
      files: await countFiles(filesDir),
    };
    await fs.writeFile(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await tar.create({ gzip: true, file, cwd: work, portable: true }, ['manifest.json', 'db', 'files']);
    return manifest;
  } finally {
    await client.end();
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The application's tables (not the migrator's) with their stored columns, in a stable order. */
export async function listTables(client: pg.Client): Promise<{ name: string; columns: string[] }[]> {
  const rows = (
    await client.query<{ table_name: string; columns: string[] }>(
      `select c.table_name, array_agg(c.column_name::text order by c.ordinal_position) as columns
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.is_generated = 'NEVER'
         -- A partitioned table (the access log) is one table here: its rows are copied through the
         -- parent and loaded back through it, into whichever partitions the restored database has.
         and not exists (select 1 from pg_class p join pg_namespace n on n.oid = p.relnamespace
                         where n.nspname = 'public' and p.relname = c.table_name and p.relispartition)
       group by c.table_name order by c.table_name`,
    )
  ).rows;
  return rows
    .filter((r) => !MIGRATOR_TABLES.includes(r.table_name))
    .map((r) => ({ name: r.table_name, columns: r.columns }));
}

export async function exists(p: string): Promise<boolean> {
  return fs.access(p).then(
    () => true,
    () => false,
  );
}

export async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) n++;
  return n;
}
