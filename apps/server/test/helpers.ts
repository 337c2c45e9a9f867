import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, testConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/database.js';
import { hashPassword } from '../src/features/auth/passwords.js';
import { LiveHub } from '../src/live/hub.js';
import { adminQuery, withDatabase } from './globalSetup.js';

// One database per test file, copied from the migrated template, and a whole app on it driven
// through app.inject(). Nothing is mocked.

export interface TestContext {
  app: FastifyInstance;
  db: Db;
  live: LiveHub;
  url: string;
  config: Config;
  close(): Promise<void>;
}

export const XHR = { 'x-requested-with': 'XMLHttpRequest' };
export const PASSWORD = 'Correct-Horse-9';

export async function createTestDatabase(): Promise<string> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `dossier_test_${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `create database "${name}" template "${inject('templateDatabase')}"`);
  return withDatabase(adminUrl, name);
}

export async function dropTestDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await adminQuery(inject('adminDatabaseUrl'), `drop database if exists "${name}" with (force)`);
}

export async function createTestContext(overrides: Partial<Config> = {}): Promise<TestContext> {
  const url = await createTestDatabase();
  const config = testConfig({ webDistDir: `${import.meta.dirname}/fixtures/web`, ...overrides });
  const { db } = createDb(url, 5);
  const live = new LiveHub(url, console);
  await live.start();
  const app = await buildApp({ config, db, live });
  await app.ready();
  return {
    app,
    db,
    live,
    url,
    config,
    async close() {
      await app.close();
      await live.close();
      await db.destroy();
      await dropTestDatabase(url);
    },
  };
}

export async function createUser(
  db: Db,
  user: { id: string; scope?: string; roles?: { role: string; scope: string; externalReference?: string }[] },
  password = PASSWORD,
): Promise<void> {
  await db
    .insertInto('users')
    .values({
      id: user.id,
      name: `User ${user.id}`,
      email: `${user.id}@test.example`,
      scope: user.scope ?? '/',
      password_hash: await hashPassword(password),
      email_confirmed_at: new Date(),
    })
    .execute();
  if (user.roles?.length) {
    await db
      .insertInto('user_roles')
      .values(
        user.roles.map((r) => ({
          user_id: user.id,
          role: r.role,
          scope: r.scope,
          external_reference: r.externalReference ?? null,
        })),
      )
      .execute();
  }
}

/** Signs in through the real route; answers the session cookie header to send with later calls. */
export async function signIn(app: FastifyInstance, username: string, password = PASSWORD): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/signin',
    headers: { ...XHR, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ username, password }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return sessionCookieOf(res);
}

export function sessionCookieOf(res: LightMyRequestResponse): string {
  const cookie = res.cookies.find((c) => c.name === 'dossier_session');
  if (!cookie) throw new Error('no session cookie');
  return `dossier_session=${cookie.value}`;
}

/** Waits until a condition holds (for work that happens after a commit: jobs, mail, webhooks). */
export async function until(check: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}
