import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Migrator } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import * as tar from 'tar';
import { createDb, migrateToLatest } from '../db/database.js';
import { migrationProvider } from '../db/migrations/index.js';
import { BACKUP_FORMAT, countFiles, exists, listTables, type Manifest } from './backup.js';

// Restores a backup into an empty database and an empty files folder: the schema is built by our
// own migrations up to the backup's level, the rows are loaded with COPY with triggers and foreign
// keys held off (they were consistent in the snapshot), sequences are set, and then the migrations
// newer than the backup run as they would on any upgrade.

export async function restoreBackup(
  file: string,
  opts: { databaseUrl: string; filesDir: string },
): Promise<Manifest> {
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-restore-'));
  try {
    await tar.extract({ file, cwd: work });
    const manifest = JSON.parse(await fs.readFile(path.join(work, 'manifest.json'), 'utf8')) as Manifest;
    if (manifest.format !== BACKUP_FORMAT || manifest.version !== 1)
      throw new Error(`${file} is not a Dossier backup.`);
    const known = await migrationProvider.getMigrations();
    if (!Object.hasOwn(known, manifest.migration))
      throw new Error(`The backup is from a newer Dossier (migration ${manifest.migration}); update first.`);
    if ((await exists(opts.filesDir)) && (await fs.readdir(opts.filesDir)).length > 0)
      throw new Error(`The files folder ${opts.filesDir} is not empty.`);

    const client = new pg.Client({ connectionString: opts.databaseUrl });
    await client.connect();
    try {
      const used = await client.query(
        `select 1 from information_schema.tables where table_schema = 'public' limit 1`,
      );
      if (used.rowCount) throw new Error('The database is not empty: restore into a new, empty database.');
      const { db } = createDb(opts.databaseUrl, 2);
      try {
        const result = await new Migrator({ db, provider: migrationProvider }).migrateTo(manifest.migration);
        if (result.error) throw result.error;
        await client.query('begin');
        // Rows go in as they were: no triggers (counters kept by triggers come with their tables) and
        // no foreign-key checks in between tables. Needs a superuser (or the cloud's equivalent).
        await client.query(`set local session_replication_role = replica`);
        const tables = await listTables(client);
        if (tables.length > 0)
          await client.query(
            `truncate ${tables.map((t) => `public.${pg.escapeIdentifier(t.name)}`).join(', ')}`,
          );
        for (const table of manifest.tables) {
          const list = table.columns.map((c) => pg.escapeIdentifier(c)).join(', ');
          const copy = client.query(
            copyFrom(`copy public.${pg.escapeIdentifier(table.name)} (${list}) from stdin`),
          );
          await pipeline(createReadStream(path.join(work, 'db', `${table.name}.copy`)), copy);
        }
        for (const seq of manifest.sequences) {
          if (seq.value === null) continue;
          await client.query('select setval($1::regclass, $2::bigint)', [
            `public.${pg.escapeIdentifier(seq.name)}`,
            seq.value,
          ]);
        }
        await client.query('commit');
        await migrateToLatest(db);
      } finally {
        await db.destroy();
      }
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      await client.end();
    }
    await fs.mkdir(opts.filesDir, { recursive: true });
    await fs.cp(path.join(work, 'files'), opts.filesDir, { recursive: true });
    const files = await countFiles(opts.filesDir);
    if (files !== manifest.files) throw new Error(`Restored ${files} files of ${manifest.files}.`);
    return manifest;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
