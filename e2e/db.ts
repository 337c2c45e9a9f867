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
