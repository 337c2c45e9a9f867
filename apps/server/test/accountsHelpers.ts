import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../src/db/database.js';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { XHR } from './helpers.js';

// Shared by the account, user, recipient and payee tests: the seeded scope entries (/org/dossier/,
// /org/acme/, /org/globex/ with their usages) and JSON calls with a session cookie.

export async function seedScopes(db: Db): Promise<void> {
  await seedConfiguration(db, { demo: false });
  invalidateConfigurationCache(db);
}

/** Replaces the IP ranges of a seeded scope entry. */
export async function setIpRanges(
  db: Db,
  entryId: string,
  ranges: { id: string; isDefault: boolean; cidrs: string[] }[],
) {
  await sql`update configuration_entries set data = jsonb_set(data, '{ipRanges}', ${JSON.stringify(ranges)}::jsonb)
            where configuration_id = (select id from configurations where scope_path = '/') and id = ${entryId}`.execute(
    db,
  );
  invalidateConfigurationCache(db);
}

export function caller(app: FastifyInstance, cookie?: string) {
  const headers = { ...XHR, ...(cookie ? { cookie } : {}) };
  return {
    get: (url: string) => app.inject({ method: 'GET', url, headers }),
    post: (url: string, payload: unknown) =>
      app.inject({ method: 'POST', url, headers, payload: payload as object }),
  };
}

export const signinForm = (username: string, password: string) => ({
  method: 'POST' as const,
  url: '/signin',
  headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams({ username, password }).toString(),
});
