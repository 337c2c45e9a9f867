import type { HomeSection, HomeView } from '@dossier/core';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { onStatement } from '../src/db/writes.js';
import {
  HOME_CACHE_MS,
  HOME_TABLES,
  HomeCache,
  type HomePage,
  writesHomeState,
} from '../src/features/home/cache.js';
import type { Actor } from '../src/http/actor.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { statementBuilder } from './support/statements.js';

// A kept home page must never answer for a page that has changed: not after a write of this
// instance (at once), not after another instance's or a hand-written one (once its NOTIFY arrives),
// and not once time alone moves a task from due today to overdue.

const builder = statementBuilder;

describe('which writes change a home page', () => {
  it('sees writes to what the page is read from, in builders and in raw SQL, and nothing else', () => {
    const writes = [
      builder.insertInto('tasks').values({ type: 't', subject: 's', scope: '/', triggered_at: new Date() }),
      builder.updateTable('requests as r').set({ status: 'closed' }),
      builder.deleteFrom('notifications').where('id', '=', '1'),
      builder.updateTable('configuration_entries').set({ name: 'n' }),
      sql`insert into home_visits (user_id) values ('x')`,
      sql`with x as (update "mail_outbox" set failed_at = now() returning id) select * from x`,
      sql`DELETE FROM inbox_message_links where message_id = ${'m'}`,
      sql`insert into ${sql.table('notifications')} (user_id) values ('x')`,
      sql`with w as (${sql`update events set payload = '{}'`}) select 1`,
      sql`with w as (${builder.deleteFrom('tasks')}) select 1`,
    ];
    for (const write of writes) expect(writesHomeState(write.toOperationNode())).toBe(true);
    const others = [
      builder.selectFrom('tasks').selectAll(),
      builder.updateTable('sessions').set({ expires_at: new Date() }),
      builder.deleteFrom('app_secrets'),
      sql`update sessions set last_seen_at = now() where id = ${'x'}`,
      sql`select * from tasks where subject = 'update'`,
    ];
    for (const other of others) expect(writesHomeState(other.toOperationNode())).toBe(false);
  });
});

const actor = (): Actor => ({
  id: 'u',
  name: 'U',
  email: 'u@test.example',
  scope: '/',
  locale: 'en-AU',
  countryCode: 'AU',
  sessionId: 's1',
  roles: [],
  permissions: [],
});
const view = (name: string): HomeView => ({
  $type: 'home',
  title: 'Home',
  name,
  lastVisitAt: null,
  sections: [],
});

describe('the home page cache', () => {
  it('keeps a page for its actor until a change, its time or the cache limit', async () => {
    let listening = true;
    const cache = new HomeCache(() => listening);
    const a = actor();
    let loads = 0;
    const load = (changesAt: Date | null) => async (): Promise<HomePage> => ({
      view: view(`v${++loads}`),
      changesAt,
    });
    expect((await cache.viewOf(a, load(null))).name).toBe('v1');
    expect((await cache.viewOf(a, load(null))).name).toBe('v1');
    // Another actor object for the session (its user or roles changed): read again.
    expect((await cache.viewOf({ ...a }, load(null))).name).toBe('v2');
    cache.forget();
    // In the second after a change nothing is kept: the read may have raced the commit.
    expect((await cache.viewOf(a, load(null))).name).toBe('v3');
    expect((await cache.viewOf(a, load(null))).name).toBe('v4');
    const settled = new HomeCache(() => listening);
    expect((await settled.viewOf(a, load(new Date(Date.now() + 150)))).name).toBe('v5');
    expect((await settled.viewOf(a, load(null))).name).toBe('v5');
    await new Promise((r) => setTimeout(r, 200));
    expect((await settled.viewOf(a, load(null))).name).toBe('v6');
    // Not hearing other instances: nothing is kept, and what was is dropped.
    listening = false;
    expect((await settled.viewOf(a, load(null))).name).toBe('v7');
    listening = true;
    expect((await settled.viewOf(a, load(null))).name).not.toBe('v6');
    expect(HOME_CACHE_MS).toBeLessThanOrEqual(30_000);
  });

  it('answers a read that raced a change, but does not keep it', async () => {
    const cache = new HomeCache(() => true);
    const a = actor();
    let loads = 0;
    const racing = async (): Promise<HomePage> => {
      cache.forget();
      return { view: view(`v${++loads}`), changesAt: null };
    };
    expect((await cache.viewOf(a, racing)).name).toBe('v1');
    expect((await cache.viewOf(a, racing)).name).toBe('v2');
  });

  it('keeps no page it was handed to change: a kept page is frozen', async () => {
    const cache = new HomeCache(() => true);
    const page = await cache.viewOf(actor(), async () => ({ view: view('v'), changesAt: null }));
    expect(Object.isFrozen(page) && Object.isFrozen(page.sections)).toBe(true);
  });
});

describe('the home page of a running instance', () => {
  let t: TestContext;
  let cookie: string;
  let requestNumber: string;
  const acme = '/org/acme/';
  const get = async (): Promise<HomeView> => {
    const res = await t.app.inject({ url: '/', headers: { ...XHR, cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const titles = (v: HomeView, key: HomeSection['key']) =>
    (v.sections.find((s) => s.key === key)?.items ?? []).map((i) => i.title);
  const addTask = (subject: string, dueAt: Date) =>
    t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject,
        scope: acme,
        request_number: requestNumber,
        triggered_at: new Date(),
        due_at: dueAt,
        assigned_to: 'khandler',
      })
      .execute();

  beforeAll(async () => {
    t = await createTestContext();
    await seedConfiguration(t.db, { demo: true });
    await createUser(t.db, {
      id: 'khandler',
      roles: [{ role: 'c:roles:handler', scope: acme }],
      scope: acme,
    });
    requestNumber = await insertTestRequest(t.db, { scope: acme, prefix: 'HKC', status: 'open' });
    cookie = await signIn(t.app, 'khandler');
    // The session's first page records the visit; wait out the second after that change.
    await get();
    await new Promise((r) => setTimeout(r, 1_100));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a page again without a statement while nothing changed', async () => {
    await get();
    let statements = 0;
    const stop = onStatement(() => statements++);
    try {
      await get();
    } finally {
      stop();
    }
    expect(statements).toBe(0);
  });

  it("shows this instance's own write on the next page", async () => {
    await get();
    await addTask('Written here', new Date(Date.now() - 3_600_000));
    expect(titles(await get(), 'overdueTasks')).toContain('Written here');
  });

  it('shows a write of another connection, in SQL written by hand, within moments', async () => {
    await new Promise((r) => setTimeout(r, 1_100));
    await get();
    await get();
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query(
        `insert into tasks (type, subject, scope, request_number, triggered_at, due_at, assigned_to)
         values ('followUp', 'Written elsewhere', $1, $2, now(), now() - interval '1 hour', 'khandler')`,
        [acme, requestNumber],
      );
    } finally {
      await other.end();
    }
    let seen = false;
    await until(
      async () => (seen = titles(await get(), 'overdueTasks').includes('Written elsewhere')),
      5_000,
    );
    expect(seen).toBe(true);
  });

  it('moves a task due today to overdue when its time comes, with no write', async () => {
    // Due in two seconds: today, unless today ends in Sydney within them (then it is not listed yet).
    const dueAt = new Date(Date.now() + 2_000);
    await addTask('Due in a moment', dueAt);
    await new Promise((r) => setTimeout(r, 1_100));
    const before = await get();
    expect(titles(before, 'overdueTasks')).not.toContain('Due in a moment');
    await get();
    await new Promise((r) => setTimeout(r, dueAt.getTime() - Date.now() + 50));
    expect(titles(await get(), 'overdueTasks')).toContain('Due in a moment');
  });

  it('has the triggers of migration 20261130_4001 on every table the page is read from', async () => {
    const { rows } = await sql<{ table: string }>`
      select c.relname as table from pg_trigger g join pg_class c on c.oid = g.tgrelid
      join pg_proc p on p.oid = g.tgfoid where p.proname = 'notify_home_change'`.execute(t.db);
    expect(new Set(rows.map((r) => r.table))).toEqual(HOME_TABLES);
  });
});
