import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { loadConfig } from '../../apps/server/src/config.js';
import type { DbOrTrx } from '../../apps/server/src/db/database.js';
import { startServer } from '../../apps/server/src/server.js';
import { ADMIN_PASSWORD, DEMO_PASSWORD } from './types.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const WEB_DIST_DIR = path.join(ROOT, 'apps/web/dist');

export interface Started {
  url: string;
  stop(): Promise<void>;
}

export interface StartedDossier extends Started {
  databaseUrl: string;
}

function baseUrl(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${address.port}`;
}

/**
 * The demo's root requires a second factor of administrators (issue 35); the bench measures load,
 * not sign-in, and signs `admin` in with the password alone, so its worlds lift that requirement.
 */
export async function liftAdministratorsSecondFactor(db: DbOrTrx): Promise<void> {
  await sql`update configuration_entries set data = data - 'secondFactorRoles' where id = 'scopeRoot'`.execute(
    db,
  );
  await sql`select pg_notify('dossier_configuration', '')`.execute(db);
}

/** The baseline: a bare Fastify app with one JSON route and nothing else. */
export async function startBare(): Promise<Started> {
  const app = Fastify({ logger: false });
  app.get('/bare', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { url: baseUrl(app), stop: () => app.close() };
}

const log = {
  info: (msg: string) => console.log(`  [dossier] ${msg}`),
  warn: (msg: string) => console.warn(`  [dossier] ${msg}`),
};

/**
 * A whole Dossier instance in this process: embedded PostgreSQL in a fresh temporary folder (or the
 * database at `databaseUrl`), migrated and seeded with the bench passwords. `stop` stops it and
 * removes the folder, also when the start failed half-way.
 */
export async function startDossier(databaseUrl: string | undefined): Promise<StartedDossier> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-bench-'));
  const removeDataDir = () => fs.rm(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED_DEMO: 'true',
    DEMO_PASSWORD,
    ADMIN_PASSWORD,
    LOG_LEVEL: 'warn',
    WEB_DIST_DIR,
    DATABASE_URL: databaseUrl,
  };
  // A development setting in the caller's shell would change what is measured.
  delete env.WEB_DEV_SERVER;
  if (!databaseUrl) delete env.DATABASE_URL;
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(loadConfig(env), log);
  } catch (error) {
    await removeDataDir();
    throw error;
  }
  try {
    await liftAdministratorsSecondFactor(server.db);
  } catch (error) {
    await server.stop().finally(removeDataDir);
    throw error;
  }
  return {
    url: baseUrl(server.app),
    // RunningServer.url is the database address (the HTTP one is the app's).
    databaseUrl: server.url,
    stop: async () => {
      try {
        await server.stop();
      } finally {
        await removeDataDir();
      }
    },
  };
}
