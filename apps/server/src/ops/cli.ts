import path from 'node:path';
import { ConfigError, loadConfig } from '../config.js';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '../db/embedded.js';
import { writeBackup } from './backup.js';
import { restoreBackup } from './restore.js';

// npm run backup -- <file>   and   npm run restore -- <file>
// The database is DATABASE_URL, else the embedded one in DATA_DIR: the running app's server when it
// runs (a backup while the app works), else one started here for the time of the command. Files are
// FILES_DIR (default DATA_DIR/files); files kept in S3 are backed up by the bucket's own versioning.

const log = {
  info: (m: string) => console.log(`[dossier] ${m}`),
  warn: (m: string) => console.warn(`[dossier] ${m}`),
};

async function main(): Promise<void> {
  const [command, file] = process.argv.slice(2);
  if ((command !== 'backup' && command !== 'restore') || !file) {
    console.error('usage: npm run backup -- <file.tar.gz>   |   npm run restore -- <file.tar.gz>');
    process.exit(2);
  }
  const config = loadConfig({ ...process.env, SEED_DEMO: 'false' });
  if (config.files.s3)
    log.warn('Files are kept in S3: back up the bucket with its own versioning or replication.');
  let stop: (() => Promise<void>) | undefined;
  let databaseUrl = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  if (!databaseUrl) {
    const embedded = await startEmbeddedPostgres(config.dataDir, log);
    databaseUrl = embedded.url;
    stop = embedded.stop;
  }
  try {
    const target = path.resolve(file);
    if (command === 'backup') {
      const m = await writeBackup(target, { databaseUrl, filesDir: config.files.dir });
      const rows = m.tables.reduce((n, t) => n + t.rows, 0);
      log.info(
        `Backup written to ${target}: ${m.tables.length} tables, ${rows} rows, ${m.files} files (migration ${m.migration})`,
      );
    } else {
      const m = await restoreBackup(target, { databaseUrl, filesDir: config.files.dir });
      log.info(`Restored ${target} of ${m.createdAt}: ${m.tables.length} tables, ${m.files} files`);
    }
  } finally {
    await stop?.();
  }
}

main().catch((error) => {
  console.error(
    error instanceof ConfigError
      ? error.message
      : `[dossier] ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
