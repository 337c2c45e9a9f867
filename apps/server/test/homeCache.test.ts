import type { HomeSection, HomeView } from '@dossier/core';
import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as homeChangeNotify from '../src/db/migrations/20261130_4001_home_change_notify.js';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { onStatement } from '../src/db/writes.js';
import {
  changeAffects,
  HOME_CACHE_MS,
  HOME_TABLES,
  HomeCache,
  type HomeDependencies,
  type HomePage,
  parseHomeChange,
} from '../src/features/home/cache.js';
import type { Actor } from '../src/http/actor.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { post } from './support/resultsInvoices.js';

// A kept home page must never answer for a page that has changed: not after the user's own write
// (at once), not after anyone else's on any instance or by hand (once its NOTIFY arrives), and not
// once time alone moves a task from due today to overdue. A change that cannot touch a page leaves
// it kept.

const deps = (over: Partial<HomeDependencies> = {}): HomeDependencies => ({
  userId: 'u',
  requests: new Set(['R1']),
  scopes: ['/org/acme/'],
  ...over,
});

describe('which changes touch a page', () => {
  it("matches the page's user, the requests it looked at and its scopes, and '*' always", () => {
    const on = deps();
    expect(changeAffects('*', on)).toBe(true);
    expect(changeAffects(['u:u'], on)).toBe(true);
    expect(changeAffects(['r:R1'], on)).toBe(true);
    expect(changeAffects(['s:/org/acme/'], on)).toBe(true);
    expect(changeAffects(['s:/org/acme/north/'], on)).toBe(true);
    expect(changeAffects(['u:v', 'r:R2', 's:/org/globex/', 's:/org/'], on)).toBe(false);
    expect(changeAffects(['s:/org/globex/'], deps({ scopes: ['/'] }))).toBe(true);
    expect(changeAffects(['x:unknown'], on)).toBe(true);
    expect(changeAffects([], on)).toBe(false);
  });

  it('reads a payload it does not understand as a change of everything', () => {
    expect(parseHomeChange('["u:a","r:b"]')).toEqual(['u:a', 'r:b']);
    for (const payload of [undefined, '', '*', 'not json', '{"u":1}', '[1]'])
      expect(parseHomeChange(payload)).toBe('*');
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
  let loads = 0;
  const load =
    (changesAt: Date | null = null, dependsOn = deps()) =>
    async (): Promise<HomePage> => ({ view: view(`v${++loads}`), changesAt, dependsOn });

  it('keeps a page for its actor until a change that touches it, its time or the cache limit', async () => {
    let listening = true;
    const cache = new HomeCache(() => listening);
    const a = actor();
    loads = 0;
    expect((await cache.viewOf(a, load())).name).toBe('v1');
    expect((await cache.viewOf(a, load())).name).toBe('v1');
    // Another actor object for the session (its user or roles changed): read again.
    expect((await cache.viewOf({ ...a }, load())).name).toBe('v2');
    expect((await cache.viewOf(a, load())).name).toBe('v3');
    cache.forget(['u:other', 'r:R9', 's:/org/globex/']);
    expect((await cache.viewOf(a, load())).name).toBe('v3');
    cache.forget(['r:R1']);
    expect((await cache.viewOf(a, load())).name).toBe('v4');
    cache.forgetUser('other');
    expect((await cache.viewOf(a, load())).name).toBe('v4');
    cache.forgetUser('u');
    expect((await cache.viewOf(a, load())).name).toBe('v5');
    // Everything: and for a second nothing is kept.
    cache.forget('*');
    expect((await cache.viewOf(a, load())).name).toBe('v6');
    expect((await cache.viewOf(a, load())).name).toBe('v7');
    const timed = new HomeCache(() => listening);
    expect((await timed.viewOf(a, load(new Date(Date.now() + 150)))).name).toBe('v8');
    expect((await timed.viewOf(a, load())).name).toBe('v8');
    await new Promise((r) => setTimeout(r, 200));
    expect((await timed.viewOf(a, load())).name).toBe('v9');
    // A page whose time is now (a session's first) is not kept.
    expect((await new HomeCache(() => true).viewOf(a, load(new Date()))).name).toBe('v10');
    // Not hearing other instances: nothing is kept, and what was is dropped.
    listening = false;
    expect((await timed.viewOf(a, load())).name).toBe('v11');
    listening = true;
    expect((await timed.viewOf(a, load())).name).toBe('v12');
    expect(HOME_CACHE_MS).toBeLessThanOrEqual(30_000);
  });

  it('answers a read that a change touching it raced, but does not keep it; an untouched one is kept', async () => {
    const cache = new HomeCache(() => true);
    const a = actor();
    loads = 0;
    const racing = (change: string[]) => async (): Promise<HomePage> => {
      cache.forget(change);
      return load()();
    };
    expect((await cache.viewOf(a, racing(['u:u']))).name).toBe('v1');
    expect((await cache.viewOf(a, racing(['u:u']))).name).toBe('v2');
    expect((await cache.viewOf(a, racing(['u:other']))).name).toBe('v3');
    expect((await cache.viewOf(a, racing(['u:u']))).name).toBe('v3');
  });

  it('keeps no page it was handed to change: a kept page is frozen', async () => {
    const cache = new HomeCache(() => true);
    const page = await cache.viewOf(actor(), load());
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
  /** Statements built while `run` runs (the session is kept, so a kept page builds none). */
  const statementsOf = async (run: () => Promise<unknown>) => {
    let statements = 0;
    const stop = onStatement(() => statements++);
    try {
      await run();
    } finally {
      stop();
    }
    return statements;
  };
  /** SQL written by hand on a connection of its own, as another instance or a person would. */
  const byHand = async (text: string, values: unknown[] = []) => {
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query(text, values);
    } finally {
      await other.end();
    }
  };
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
    await createUser(t.db, { id: 'kother', roles: [{ role: 'c:roles:handler', scope: acme }], scope: acme });
    requestNumber = await insertTestRequest(t.db, { scope: acme, prefix: 'HKC', status: 'open' });
    cookie = await signIn(t.app, 'khandler');
    // The session's first page records the visit and is not kept. A page is kept for the session's
    // actor object, which the session cache keeps only from a second after the users were made.
    await get();
    await new Promise((r) => setTimeout(r, 1_100));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers a page again without a statement while nothing changed', async () => {
    await get();
    expect(await statementsOf(get)).toBe(0);
  });

  it("shows the user's own write on the next page, before any NOTIFY", async () => {
    await get();
    const res = await post(t, cookie, `/requests/${requestNumber}/actions/addNote`, {
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Called' }] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = await get();
    expect(page.sections.find((s) => s.key === 'recentRequests')?.items[0]?.requestNumber).toBe(
      requestNumber,
    );
  });

  it("drops the user's pages when the user posts anything, before the answer leaves", async () => {
    await get();
    expect(await statementsOf(get)).toBe(0);
    // Refused, so nothing is written and no NOTIFY comes: only the answer's own hook drops the page.
    const res = await post(t, cookie, `/requests/${requestNumber}/actions/addNote`, {
      body: 'not a document',
    });
    expect(res.statusCode).toBe(400);
    expect(await statementsOf(get)).toBeGreaterThan(0);
  });

  it('shows a write of another connection, in SQL written by hand, within moments', async () => {
    await get();
    await byHand(
      `insert into tasks (type, subject, scope, request_number, triggered_at, due_at, assigned_to)
       values ('followUp', 'Written elsewhere', $1, $2, now(), now() - interval '1 hour', 'khandler')`,
      [acme, requestNumber],
    );
    let seen = false;
    await until(
      async () => (seen = titles(await get(), 'overdueTasks').includes('Written elsewhere')),
      5_000,
    );
    expect(seen).toBe(true);
  });

  it("keeps the page through another user's change, and drops it for a change of a request it shows", async () => {
    await get();
    await get();
    await byHand(
      `insert into notifications (user_id, type, target, text) values ('kother', 't', '/', 'Not yours')`,
    );
    await byHand(`update requests set applicant_name = 'Renamed Applicant' where request_number = $1`, [
      requestNumber,
    ]);
    let renamed = false;
    await until(async () => {
      const page = await get();
      renamed = page.sections.some((s) => s.items.some((i) => i.title === 'Renamed Applicant'));
      return renamed;
    }, 5_000);
    expect(renamed).toBe(true);
    await get();
    // The other user's change came first: had it dropped the page, this would be one read of many.
    await byHand(
      `insert into notifications (user_id, type, target, text) values ('kother', 't', '/', 'Again')`,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(await statementsOf(get)).toBe(0);
  });

  it('moves a task due today to overdue when its time comes, with no write', async () => {
    // Due in four seconds: today, unless today ends in Sydney within them (then it is not listed yet).
    // The page must show it due today before then, on a machine busy with other test files too.
    const dueAt = new Date(Date.now() + 4_000);
    await addTask('Due in a moment', dueAt);
    await until(async () => titles(await get(), 'tasksDueToday').includes('Due in a moment'), 3_000);
    expect(titles(await get(), 'overdueTasks')).not.toContain('Due in a moment');
    await new Promise((r) => setTimeout(r, dueAt.getTime() - Date.now() + 50));
    expect(titles(await get(), 'overdueTasks')).toContain('Due in a moment');
  });

  it('has the triggers of migration 20261130_4001 on every table the page is read from, after undoing it too', async () => {
    const triggers = async () => {
      const { rows } = await sql<{ table: string; events: number }>`
        select c.relname as table, count(*)::int as events from pg_trigger g join pg_class c on c.oid = g.tgrelid
        join pg_proc p on p.oid = g.tgfoid where p.proname like 'notify_home_change_%' group by c.relname`.execute(
        t.db,
      );
      return rows;
    };
    const rows = await triggers();
    expect(new Set(rows.map((r) => r.table))).toEqual(HOME_TABLES);
    expect(rows.every((r) => r.events === 4)).toBe(true);
    const db = t.db as unknown as Kysely<unknown>;
    await homeChangeNotify.down(db);
    expect(await triggers()).toEqual([]);
    await homeChangeNotify.up(db);
    expect(await triggers()).toEqual(expect.arrayContaining(rows));
  });

  it('names what each write changed, and everything for a write too large to name', async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => n.channel === 'dossier_home' && heard.push(n.payload ?? ''));
    await listener.query('listen dossier_home');
    const hear = async (text: string, values: unknown[] = []) => {
      heard.length = 0;
      await byHand(text, values);
      await until(() => heard.length > 0, 3_000);
      return heard.map((p) => parseHomeChange(p));
    };
    try {
      const insertTask = `insert into tasks (type, subject, scope, request_number, triggered_at, assigned_to)
        values ('followUp', 'Heard', $1, $2, now(), 'khandler')`;
      expect(await hear(insertTask, [acme, requestNumber])).toEqual([['u:khandler']]);
      expect(await hear(`update tasks set assigned_to = 'kother' where subject = 'Heard'`)).toEqual([
        ['u:khandler', 'u:kother'],
      ]);
      const sender = await hear(
        `insert into tasks (type, subject, scope, request_number, triggered_at)
         values ('senderActionRequired', 'Sign', $1, $2, now())`,
        [acme, requestNumber],
      );
      expect(new Set(sender[0])).toEqual(new Set([`s:${acme}`]));
      expect(
        new Set(
          (await hear(`update requests set status = status where request_number = $1`, [requestNumber]))[0],
        ),
      ).toEqual(new Set([`r:${requestNumber}`, `s:${acme}`]));
      expect(
        await hear(
          `insert into mail_outbox ("to", subject, text, next_attempt_at, scope) values ('a@b.example', 's', 't', now(), '/org/globex/')`,
        ),
      ).toEqual([['s:/org/globex/']]);
      expect(
        await hear(
          `insert into notifications (user_id, type, target, text)
           select 'kother', 't', '/', 'n' || i from generate_series(1, 2) i`,
        ),
      ).toEqual([['u:kother']]);
      expect(await hear(`delete from notifications where user_id = 'kother'`)).toEqual([['u:kother']]);
      expect(
        await hear(
          `insert into events (type, aggregate_type, aggregate_id, actor, payload)
           select 'noteAdded', 'request', $1, 'user' || i, '{}' from generate_series(1, 301) i`,
          [requestNumber],
        ),
      ).toEqual(['*']);
    } finally {
      await listener.end();
    }
  });
});
