import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from './config.js';

// The key sealing the recipient's links (issue 34) lives outside the database: RECIPIENT_LINK_KEY,
// else a key this process keeps in DATA_DIR, made once (mode 0600). That suits the one embedded
// instance of the demo; several instances must share RECIPIENT_LINK_KEY, or each would seal under
// its own key and their reminders could not print each other's links (they fall back to the
// wording without the link). Backups (ops/backup.ts) hold the database and files, never this file.

export const RECIPIENT_LINK_KEY_FILE = 'recipient-link.key';

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
}

/** The configuration with its current key: the environment's, else the data directory's. */
export async function withRecipientLinkKey(config: Config, log: Logger): Promise<Config> {
  if (config.recipientLinkKeys.current) return config;
  const current = await readOrCreateKey(path.join(config.dataDir, RECIPIENT_LINK_KEY_FILE), log);
  return { ...config, recipientLinkKeys: { ...config.recipientLinkKeys, current } };
}

export async function readOrCreateKey(file: string, log: Logger): Promise<Buffer> {
  if (!(await exists(file))) await createKey(file, log);
  const key = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64');
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key in base64.`);
  return key;
}

async function createKey(file: string, log: Logger) {
  await fs.mkdir(path.dirname(file), { recursive: true });
  // Written aside and linked into place: link fails when the file exists, so two processes starting
  // on one data directory at once keep one key, and neither reads a half-written file.
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(aside, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
  try {
    await fs.link(aside, file);
    log.info(`Made the key of the recipient's links in ${file} (several instances: set RECIPIENT_LINK_KEY).`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(aside, { force: true });
  }
}

const exists = (file: string) =>
  fs.access(file).then(
    () => true,
    () => false,
  );
