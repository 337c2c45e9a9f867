import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PORT } from './playwright.config';

// Direct access to the e2e server's embedded database, for the few set-ups no screen offers (such as
// linking a user to an identity provider account, which provisioning does in real life).
export async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const dataDir = path.resolve(import.meta.dirname, '..', '.tmp', `e2e-data-${PORT}`);
  const port = fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = fs.readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: 'postgres',
    password,
    database: 'dossier',
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The path (with query) of the newest link matching `pattern` mailed to an address, from the outbox. */
export async function mailedLink(to: string, pattern: RegExp): Promise<string> {
  const text = await withDatabase(async (client) => {
    const result = await client.query(
      'select text from mail_outbox where "to" = $1 order by id desc limit 1',
      [to],
    );
    return (result.rows[0]?.text as string | undefined) ?? '';
  });
  const link = pattern.exec(text)?.[0];
  if (!link) throw new Error(`no mail to ${to} with a link like ${pattern}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}
