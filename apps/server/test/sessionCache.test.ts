import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/schema.js';
import { writesSessionState } from '../src/db/sessionWrites.js';
import { resolveSessionEntry } from '../src/features/auth/service.js';
import type { Actor } from '../src/http/actor.js';
import { CACHE_MS, type ResolvedSession, SessionCache } from '../src/http/sessionCache.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';

// The session cache must never answer for a session that has ended or an actor that has changed:
// not on the instance that made the change, and not (after its NOTIFY) on any other.

const builder = new Kysely<Database>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('which writes change an actor', () => {
  it('sees deletes, updates and role grants of what actors are read from, and nothing else', () => {
    const writes = [
      builder.deleteFrom('sessions').where('id', '=', 'x'),
      builder.updateTable('sessions').set({ expires_at: new Date() }),
      builder.updateTable('users').set({ disabled: true }).where('id', '=', 'x'),
      builder.deleteFrom('users').where('id', '=', 'x'),
      builder.insertInto('user_roles').values({ user_id: 'x', role: 'administrator', scope: '/' }),
      builder.updateTable('user_roles').set({ scope: '/' }),
      builder.deleteFrom('user_roles').where('user_id', '=', 'x'),
      builder.updateTable('users as u').set({ name: 'n' }),
      builder.updateTable('users').set({ scope: '/org/', locked_until: null }),
    ];
    for (const write of writes) expect(writesSessionState(write.toOperationNode())).toBe(true);
    const others = [
      builder.selectFrom('sessions').selectAll(),
      builder.insertInto('sessions').values({ id: 'x', user_id: 'x', expires_at: new Date() }),
      builder.insertInto('users').values({ id: 'x', name: 'n', email: 'e', scope: '/' }),
      builder.updateTable('requests').set({ status: 'closed' }),
      builder.deleteFrom('tasks'),
      builder.updateTable('users').set({ failed_signins: 0, locked_until: null }),
    ];
    for (const other of others) expect(writesSessionState(other.toOperationNode())).toBe(false);
    expect(writesSessionState(sql`delete from sessions`.toOperationNode())).toBe(false);
  });
});

const actor = (name: string): Actor => ({
  id: 'u',
  name,
  email: 'u@test.example',
  locale: 'en-AU',
  countryCode: '+61',
  scope: '/',
  roles: [{ role: 'handler', scope: '/' }],
  permissions: [],
  sessionId: 's',
});

function counting(answer: () => ResolvedSession | undefined) {
  const loads: string[] = [];
  const cache = new SessionCache(async (token) => {
    loads.push(token);
    return answer();
  });
  return { cache, loads };
}

describe('SessionCache', () => {
  const live = () => ({ actor: actor('A'), validUntil: Date.now() + 60 * 60_000 });

  it('reads a session once while it is fresh, and again after it forgot', async () => {
    const { cache, loads } = counting(live);
    await cache.actorOf('t');
    const again = await cache.actorOf('t');
    expect(loads).toEqual(['t']);
    expect(again?.name).toBe('A');
    cache.forget();
    await cache.actorOf('t');
    expect(loads).toEqual(['t', 't']);
  });

  it('keeps nothing it read while or just after forgetting: the change may not have been committed', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const loads: string[] = [];
    const cache = new SessionCache(async (token) => {
      loads.push(token);
      await gate;
      return live();
    });
    const first = cache.actorOf('t');
    cache.forget();
    release();
    await first;
    await cache.actorOf('t');
    expect(loads).toEqual(['t', 't']);
  });

  it('reads again once the session may have ended, and never keeps an unknown one', async () => {
    let answer: ResolvedSession | undefined = { actor: actor('A'), validUntil: Date.now() - 1 };
    const { cache, loads } = counting(() => answer);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past the settling second
    await cache.actorOf('t');
    await cache.actorOf('t');
    expect(loads).toHaveLength(2);
    answer = undefined;
    expect(await cache.actorOf('u')).toBeUndefined();
    expect(await cache.actorOf('u')).toBeUndefined();
    expect(loads).toHaveLength(4);
    expect(CACHE_MS).toBeLessThanOrEqual(60_000);
  });

  it('hands out an actor no request can change for the others', async () => {
    const { cache } = counting(live);
    const kept = await cache.actorOf('t');
    expect(() => {
      (kept as Actor).roles.push({ role: 'administrator', scope: '/' });
    }).toThrow();
    expect(() => {
      (kept as { name: string }).name = 'B';
    }).toThrow();
  });
});

describe('a cached session on a running instance', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await createUser(t.db, { id: 'admin', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    await createUser(t.db, { id: 'hana', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  });
  afterAll(() => t.close());

  const home = (cookie: string) => t.app.inject({ url: '/', headers: { ...XHR, cookie } });
  /** Signs in and waits out the settling second of the sign-in's own writes, so the actor is kept. */
  async function signInKept(user: string): Promise<string> {
    const cookie = await signIn(t.app, user);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await home(cookie)).statusCode).toBe(200);
    return cookie;
  }

  it('ends at once when the user signs out', async () => {
    const cookie = await signInKept('hana');
    expect((await home(cookie)).statusCode).toBe(200);
    await t.app.inject({
      method: 'POST',
      url: '/signout',
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect((await home(cookie)).statusCode).toBe(401);
  });

  it('takes a role removed in this instance at once', async () => {
    const cookie = await signInKept('admin');
    const users = () => t.app.inject({ url: '/admin/users', headers: { ...XHR, cookie } });
    expect((await users()).statusCode).toBe(200);
    await t.db.deleteFrom('user_roles').where('user_id', '=', 'admin').execute();
    expect((await users()).statusCode).toBe(403);
  });

  it('touches a session in use before a short idle time runs out, and says until when it holds', async () => {
    const cookie = await signIn(t.app, 'hana');
    const token = cookie.replace(/^dossier_session=/, '').split(';')[0] ?? '';
    const config = { ...t.config, session: { ...t.config.session, idleMinutes: 1 } };
    const fortySecondsAgo = new Date(Date.now() - 40_000);
    await t.db
      .updateTable('sessions')
      .set({ last_seen_at: fortySecondsAgo })
      .where('user_id', '=', 'hana')
      .execute();
    const entry = await resolveSessionEntry(t.db, config, token);
    expect(entry?.actor.id).toBe('hana');
    // Touched (40 s is past half the idle minute), so it lives a whole minute from now.
    expect(entry?.validUntil).toBeGreaterThan(Date.now() + 55_000);
    const row = await t.db
      .selectFrom('sessions')
      .select('last_seen_at')
      .where('user_id', '=', 'hana')
      .executeTakeFirstOrThrow();
    expect(row.last_seen_at.getTime()).toBeGreaterThan(fortySecondsAgo.getTime());
  });

  it('ends within moments when another instance (or a hand-written UPDATE) disables the user', async () => {
    const cookie = await signInKept('hana');
    expect((await home(cookie)).statusCode).toBe(200);
    // A plain client, not Kysely: this instance learns of it only through the database's NOTIFY.
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query(`update users set disabled = true where id = 'hana'`);
      const started = Date.now();
      await until(async () => (await home(cookie)).statusCode === 401, 5_000);
      expect(Date.now() - started).toBeLessThan(2_000);
      await other.query(`update users set disabled = false where id = 'hana'`);
    } finally {
      await other.end();
    }
  });
});
