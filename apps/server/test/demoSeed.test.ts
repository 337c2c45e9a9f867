import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { HISTORY_SIZE } from '../src/db/seedHistory.js';
import { getRetention } from '../src/features/configuration/index.js';
import { RECIPIENT_TAGS } from '../src/features/recipients/service.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createTestDatabase, dropTestDatabase, until, XHR } from './helpers.js';

// `npm start` on an empty database: the demo's requests show every state a person expects to find
// on the dashboard and in the inbox, made through the app's own routes.

let server: RunningServer;
let url: string;
let dataDir: string;

beforeAll(async () => {
  url = await createTestDatabase();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-demo-'));
  const config = loadConfig({
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SEED_DEMO: 'true',
    ADMIN_PASSWORD: 'Admin-Pass-2026!',
    DEMO_PASSWORD: 'Demo-Pass-2026!',
    SERVICES: 'web,jobs,live',
    LOG_LEVEL: 'silent',
  });
  server = await startServer(config, { info: () => undefined, warn: () => undefined });
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await dropTestDatabase(url);
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** A session cookie of a demo account. */
async function signInAs(username: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/signin',
    headers: XHR,
    payload: { username, password: 'Demo-Pass-2026!' },
  });
  return `dossier_session=${res.cookies.find((c) => c.name === 'dossier_session')?.value}`;
}

describe('the demo data', () => {
  it('requires a second factor of administrators: admin signs in to the enrolment of one', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/signin',
      headers: XHR,
      payload: { username: 'admin', password: 'Admin-Pass-2026!' },
    });
    expect(res.json()).toMatchObject({ user: { id: 'admin' }, mustEnrol: true });
    // The other demo users sign in with their password alone.
    const handler = await server.app.inject({
      method: 'POST',
      url: '/signin',
      headers: XHR,
      payload: { username: 'handler', password: 'Demo-Pass-2026!' },
    });
    expect(handler.json().mustEnrol).toBeUndefined();
  });

  it('gives every recipient, in the directory and on a request, the tags marked required', async () => {
    const required = Object.values(RECIPIENT_TAGS).filter((tag) => tag.isRequired);
    expect(required.length).toBeGreaterThan(0);
    const requests = await server.db.selectFrom('requests').select(['request_number', 'recipient']).execute();
    expect(requests.length).toBeGreaterThan(0);
    for (const row of requests) {
      const tags = (row.recipient as { tags?: Record<string, string> } | null)?.tags ?? {};
      for (const tag of required) expect(tag.values, row.request_number).toContain(tags[tag.id]);
    }
    const directory = await server.db.selectFrom('recipients').select(['name', 'tags']).execute();
    for (const row of directory) {
      const tags = row.tags as Record<string, { value?: string }>;
      for (const tag of required) expect(tag.values, row.name).toContain(tags[tag.id]?.value);
    }
  });

  it('names on every request a recipient of its directory, by id and name', async () => {
    const directory = new Map(
      (await server.db.selectFrom('recipients').select(['id', 'name']).execute()).map((r) => [r.id, r.name]),
    );
    const requests = await server.db
      .selectFrom('requests')
      .select(['request_number', 'recipient_id', 'recipient_name'])
      .execute();
    const strays = requests.filter(
      (r) => !r.recipient_id || directory.get(r.recipient_id) !== r.recipient_name,
    );
    expect(strays.map((r) => `${r.request_number}: ${r.recipient_name}`)).toEqual([]);
  });

  it("counts a request's open tasks as due and calls a task done before its due date on time", async () => {
    const cookie = await signInAs('handler');
    const numbers = await server.db.selectFrom('requests').select('request_number').execute();
    let onTime = 0;
    for (const { request_number: n } of numbers) {
      const res = await server.app.inject({ url: `/requests/${n}`, headers: { ...XHR, cookie } });
      expect(res.statusCode, n).toBe(200);
      const view = res.json() as {
        previews: { tasksDue: number; tasksCompleted: number };
        tasks: { dueAt?: string; completedAt?: string; wasCompletedBeforeDueDate?: boolean }[];
      };
      expect(view.previews.tasksDue, n).toBe(view.tasks.filter((t) => !t.completedAt).length);
      for (const task of view.tasks.filter((t) => t.completedAt && t.dueAt)) {
        const early = (task.completedAt as string) <= (task.dueAt as string);
        if (early) onTime++;
        expect(task.wasCompletedBeforeDueDate, `${n} ${JSON.stringify(task)}`).toBe(early);
      }
    }
    expect(onTime).toBeGreaterThan(0);
  }, 180_000);

  it('names every item type a request asks for by its name, not its id', async () => {
    const rows = await server.db.selectFrom('requests').select(['request_number', 'content']).execute();
    const unnamed = rows.flatMap((r) =>
      (r.content.itemTypes ?? [])
        .filter((i) => !i.name || i.name === i.id)
        .map((i) => `${r.request_number}: ${i.id}`),
    );
    expect(unnamed).toEqual([]);
  });

  it('has requests in every state, with results, invoices, notes and mail', async () => {
    // The live demo of the last weeks (the year of history behind it is checked below).
    const statuses = await server.db
      .selectFrom('requests')
      .where('submitted_at', '>', new Date(Date.now() - 32 * 86_400_000))
      .select(['scope', 'status'])
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .groupBy(['scope', 'status'])
      .orderBy('scope')
      .orderBy('status')
      .execute();
    expect(statuses.map((r) => `${r.scope} ${r.status} ${r.n}`)).toEqual([
      '/org/acme/ submitted 6',
      '/org/globex/ closed 2',
      '/org/globex/ open 3',
      '/org/globex/ submitted 1',
    ]);
    const results = await server.db
      .selectFrom('request_results')
      .innerJoin('requests', 'requests.request_number', 'request_results.request_number')
      .where('requests.submitted_at', '>', new Date(Date.now() - 32 * 86_400_000))
      .select(['quality_assured_at'])
      .execute();
    expect(results.map((r) => r.quality_assured_at !== null).sort()).toEqual([false, true, true]);
    const invoices = await server.db
      .selectFrom('request_invoices')
      .innerJoin('requests', 'requests.request_number', 'request_invoices.request_number')
      .where('requests.submitted_at', '>', new Date(Date.now() - 32 * 86_400_000))
      .select(['request_invoices.paid_at'])
      .execute();
    expect(invoices.map((r) => r.paid_at !== null).sort()).toEqual([false, true]);
    const inbox = await server.db
      .selectFrom('inbox_messages as m')
      .leftJoin('inbox_message_links as l', 'l.message_id', 'm.id')
      .select(['m.subject', 'l.request_number'])
      .execute();
    // The reply carries a request number with valid check digits, so it went to that request.
    expect(inbox).toHaveLength(2);
    expect(inbox).toEqual(
      expect.arrayContaining([
        {
          subject: expect.stringMatching(/^Re: Request for records GLX/),
          request_number: expect.any(String),
        },
        { subject: 'Records as requested', request_number: null },
      ]),
    );
  });

  it('has a year of history behind the live demo: both organisations, every state, paid invoices', async () => {
    const old = await server.db
      .selectFrom('requests')
      .where('submitted_at', '<=', new Date(Date.now() - 32 * 86_400_000))
      .select(['scope', 'status', 'submitted_at', 'closed_at'])
      .execute();
    expect(old.length).toBe(HISTORY_SIZE);
    for (const scope of ['/org/acme/', '/org/globex/'])
      expect(new Set(old.filter((r) => r.scope === scope).map((r) => r.status))).toEqual(
        new Set(['submitted', 'open', 'closed']),
      );
    // Issue 36: one of Acme's closed requests is on legal hold, and both organisations keep files
    // 84 months and personal data 120 months.
    const held = await server.db
      .selectFrom('requests')
      .select(['scope', 'status', 'legal_hold_by'])
      .where('legal_hold_at', 'is not', null)
      .execute();
    expect(held).toEqual([{ scope: '/org/acme/', status: 'closed', legal_hold_by: 'manager' }]);
    for (const scope of ['/org/acme/', '/org/globex/'])
      expect(await getRetention(server.db, scope)).toEqual({
        deleteFilesAfterMonths: 84,
        deIdentifyAfterMonths: 120,
        keepAccessLogMonths: 72,
      });
    const earliest = Math.min(...old.map((r) => r.submitted_at.getTime()));
    expect(Date.now() - earliest).toBeGreaterThan(300 * 86_400_000);
    // Closed after they were submitted, and never in the future.
    for (const r of old.filter((r) => r.closed_at))
      expect(r.closed_at!.getTime()).toBeGreaterThan(r.submitted_at.getTime());
    const cookie = await signInAs('manager');
    // Every report shows figures and a chart on the default period, the last 12 months.
    const page = await server.app.inject({ url: '/reports/requests/closed', headers: { ...XHR, cookie } });
    const { from, to } = page.json().defaultPeriod;
    for (const path of [
      '/reports/requests/closed',
      '/reports/tasks/completed',
      '/reports/tasks/active',
      '/reports/requests/open',
      '/reports/invoices/paid',
      '/reports/request-results',
      '/reports/users',
    ]) {
      const res = await server.app.inject({
        url: `${path}/filter?filter.from=${from}&filter.to=${to}`,
        headers: { ...XHR, cookie },
      });
      expect(res.statusCode, path).toBe(200);
      expect(res.json().rows.length, path).toBeGreaterThan(0);
      expect(res.json().chart, path).not.toBeNull();
    }
    const closed = await server.app.inject({
      url: `/reports/requests/closed/filter?filter.from=${from}&filter.to=${to}`,
      headers: { ...XHR, cookie },
    });
    expect(closed.json().totals.requests).toBeGreaterThan(200);
    expect(closed.json().chart.categories.length).toBeGreaterThan(40);
  }, 180_000);

  it('has a year of access log consistent with that history', async () => {
    const months = await sql<{
      month: string;
      n: number;
    }>`select to_char(date_trunc('month', at), 'YYYY-MM') as month,
        count(*)::int as n from access_log where at < now() - interval '32 days' group by 1`.execute(
      server.db,
    );
    expect(months.rows.length).toBeGreaterThanOrEqual(11);
    // Whoever changed a request had it open: a page view by the actor before each of its events.
    const unseen = await sql<{ n: number }>`select count(*)::int as n from events e
       where e.aggregate_type = 'request' and e.created_at < now() - interval '32 days'
         and exists (select 1 from users u where u.id = e.actor)
         and not exists (select 1 from access_log a where a.request_number = e.aggregate_id
           and a.user_id = e.actor and a.what = 'request' and a.at between e.created_at - interval '10 minutes' and e.created_at)`.execute(
      server.db,
    );
    expect(unseen.rows[0]?.n).toBe(0);
    const exports = await server.db
      .selectFrom('access_log')
      .where('what', '=', 'export')
      .select('detail')
      .execute();
    expect(exports.length).toBeGreaterThanOrEqual(11);
  });

  it('gives the workflow its tasks, and the handler a dashboard with something on every tile', async () => {
    // The engine reacts after commit: the unmatched mail's classify task and the results' QA task.
    await until(async () => {
      const types = await server.db
        .selectFrom('tasks')
        .select('type')
        .where('completed_at', 'is', null)
        .execute();
      const open = new Set(types.map((t) => t.type));
      return open.has('classifyIncomingMessage') && open.has('qualityAssureResult') && open.has('payInvoice');
    });
    const cookie = await signInAs('handler');
    for (const tile of ['activeTasks', 'correspondence', 'results', 'closedRequests', 'openRequests']) {
      const res = await server.app.inject({ url: `/dashboard/${tile}`, headers: { ...XHR, cookie } });
      expect(res.statusCode).toBe(200);
      expect(res.json().total, tile).toBeGreaterThan(0);
    }
  });
  it('counts for every tile just the rows its list pages through, for the handler and each sender', async () => {
    const read = async (cookie: string, tile: string, query: string) => {
      const res = await server.app.inject({
        url: `/dashboard/${tile}?${query}`,
        headers: { ...XHR, cookie },
      });
      expect(res.statusCode, `${tile}?${query}`).toBe(200);
      return res.json() as {
        items: unknown[];
        total: number;
        totalIsCapped: boolean;
        aggregations: { key: string; count: number }[];
      };
    };
    /** Every row of the list, page after page. */
    const listAll = async (cookie: string, tile: string, query: string) => {
      const rows: unknown[] = [];
      for (let offset = 0; ; offset += 5) {
        const page = await read(cookie, tile, `${query}&pageSize=5&pageOffset=${offset}`);
        rows.push(...page.items);
        if (page.items.length < 5) return rows;
      }
    };
    // A sender action required task on a request of each sender organisation: the default task
    // list leaves them out, and so must its counts (issue 22: 20 counted against 18 listed).
    for (const scope of ['/org/acme/', '/org/globex/']) {
      const request = await server.db
        .selectFrom('requests')
        .select('request_number')
        .where('scope', '=', scope)
        .where('status', '<>', 'closed')
        .orderBy('request_number')
        .executeTakeFirstOrThrow();
      await server.db
        .insertInto('tasks')
        .values({
          type: 'senderActionRequired',
          subject: 'Sender action required',
          request_number: request.request_number,
          scope,
          due_at: new Date(),
        })
        .execute();
    }
    const checked: string[] = [];
    for (const [user, owners] of [
      ['handler', ['all']],
      ['submitter', ['all', 'mine']],
      ['globex', ['all', 'mine']],
    ] as const) {
      const cookie = await signInAs(user);
      for (const tile of ['activeTasks', 'correspondence', 'results', 'closedRequests', 'openRequests']) {
        const typeFilters = tile === 'activeTasks' ? ['', '&filter.taskType=all', '&due=today'] : [''];
        for (const owner of owners)
          for (const typeFilter of typeFilters) {
            const query = `owner=${owner}${typeFilter}`;
            const answer = await read(cookie, tile, query);
            const rows = await listAll(cookie, tile, query);
            expect(answer.totalIsCapped).toBe(false);
            expect(rows.length, `${user} ${tile}?${query}: total`).toBe(answer.total);
            // The counts table adds up to the list, and each key lists as many rows as it counts.
            const sum = answer.aggregations.reduce((n, a) => n + a.count, 0);
            expect(sum, `${user} ${tile}?${query}: counts table`).toBe(answer.total);
            for (const a of answer.aggregations) {
              const keyed = `${query}&filter.key=${encodeURIComponent(a.key)}`;
              expect((await listAll(cookie, tile, keyed)).length, `${user} ${tile}?${keyed}`).toBe(a.count);
              expect((await read(cookie, tile, keyed)).total, `${user} ${tile}?${keyed}: total`).toBe(
                a.count,
              );
            }
            checked.push(`${user} ${tile}?${query} ${answer.total}`);
          }
      }
    }
    expect(checked.filter((c) => !c.endsWith(' 0')).length).toBeGreaterThan(10);
    // Paging five at a time through a year of closed requests takes a while.
  }, 300_000);
});
