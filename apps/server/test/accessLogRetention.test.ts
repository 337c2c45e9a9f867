import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidateConfigurationCache } from '../src/features/configuration/cache.js';
import { runRetention } from '../src/features/retention/index.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { setRetention } from './support/retention.js';

// The access log's own retention (issue 36): whole months leave it when they are older than the
// longest time any scope keeps it; only a run at the root drops them, the run records which; the
// application's connection still cannot UPDATE or DELETE an entry, and the one function that drops
// months refuses anything of the last year.

let t: TestContext;
const cookies: Record<string, string> = {};
const acme = '/org/acme/';
const ctx = () => ({ db: t.db, storage: createLocalStorage(t.config.files.dir) });

/** The partition name of the month `ago` months before this one. */
function monthAgo(ago: number): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - ago);
  return `access_log_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

const exists = async (name: string) =>
  (await sql<{ r: string | null }>`select to_regclass(${name})::text as r`.execute(t.db)).rows[0]?.r !== null;

async function entriesIn(name: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(name)}`.execute(t.db);
  return Number(rows[0]?.n);
}

function retentionPage(who: string) {
  return t.app.inject({
    method: 'GET',
    url: '/admin/retention',
    headers: { ...XHR, cookie: cookies[who] as string },
  });
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, { id: 'acmeadmin', scope: acme, roles: [{ role: 'c:roles:admin', scope: acme }] });
  for (const who of ['root', 'acmeadmin']) cookies[who] = await signIn(t.app, who);
  // Four years of months, an entry in each (mid-month, so the month's partition holds it).
  await sql`select access_log_ensure_months((now() - interval '47 months')::date, now()::date)`.execute(t.db);
  await sql`insert into access_log (at, user_id, request_number, what, via)
    select date_trunc('month', now()) - make_interval(months => m) + interval '14 days', 'root', 'TST-1', 'request', 'page'
    from generate_series(0, 47) m`.execute(t.db);
  // Two entries of months without a partition fall into the default one: one of 55 months ago (due)
  // and one of 10 months ahead (kept).
  await sql`insert into access_log (at, user_id, request_number, what, via) values
    (now() - interval '55 months', 'root', 'TST-OLD', 'request', 'page'),
    (now() + interval '10 months', 'root', 'TST-NEW', 'request', 'page')`.execute(t.db);
  // The root keeps the log two years, Acme three: the longer one holds for all.
  await setRetention(t, '/', {
    deleteFilesAfterMonths: null,
    deIdentifyAfterMonths: null,
    keepAccessLogMonths: 24,
  });
  await setRetention(t, acme, {
    deleteFilesAfterMonths: null,
    deIdentifyAfterMonths: null,
    keepAccessLogMonths: 36,
  });
});
afterAll(() => t.close());

describe("the access log's retention", () => {
  it('shows a root administrator how long the log is kept and the months the next run removes', async () => {
    const res = await retentionPage('root');
    expect(res.statusCode, res.body).toBe(200);
    const { keepMonths, monthsDue } = res.json().accessLog as { keepMonths: number; monthsDue: string[] };
    expect(keepMonths).toBe(36);
    // Months 37 to 47 ago lie entirely before the cutoff; the 36th ago straddles it and stays.
    expect(monthsDue).toEqual(expect.arrayContaining([monthAgo(47), monthAgo(37)]));
    expect(monthsDue).not.toContain(monthAgo(36));
    // And the default partition, for its entry of 55 months ago; listed last.
    expect(monthsDue).toHaveLength(12);
    expect(monthsDue.at(-1)).toBe('access_log_default');
    // An Acme administrator's run does not reach the log's months (they hold every scope's reads).
    expect((await retentionPage('acmeadmin')).json().accessLog.monthsDue).toEqual([]);
  });

  it("is not touched by a run in one organisation's scope", async () => {
    const run = await runRetention(ctx(), { kind: 'manual', actor: 'acmeadmin', within: [acme] });
    expect(run.accessLogMonths).toEqual([]);
    expect(await exists(monthAgo(47))).toBe(true);
  });

  it('drops the whole months older than that at the root, records them, and drops nothing twice', async () => {
    const newId = (
      await sql<{ id: string }>`select id from access_log where request_number = 'TST-NEW'`.execute(t.db)
    ).rows[0]?.id;
    const [a, b] = await Promise.all([
      runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] }),
      runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] }),
    ]);
    const dropped = [...a.accessLogMonths, ...b.accessLogMonths].sort();
    for (let ago = 37; ago <= 47; ago++) expect(await exists(monthAgo(ago)), monthAgo(ago)).toBe(false);
    for (const ago of [36, 30, 12, 0]) expect(await entriesIn(monthAgo(ago)), monthAgo(ago)).toBe(1);
    expect(new Set(dropped).size).toBe(dropped.length);
    const recorded = await t.db
      .selectFrom('retention_runs')
      .select('access_log_months')
      .where('kind', '=', 'scheduled')
      .execute();
    expect(recorded.flatMap((r) => r.access_log_months).sort()).toEqual(
      [...Array.from({ length: 11 }, (_, i) => monthAgo(47 - i)), 'access_log_default'].sort(),
    );
    // The default partition lost its old entry only: the later one kept its id, and the new
    // default refuses TRUNCATE, UPDATE and DELETE as the old one did.
    const kept = await sql<{ request_number: string; id: string }>`
      select request_number, id from access_log_default`.execute(t.db);
    expect(kept.rows).toEqual([{ request_number: 'TST-NEW', id: newId }]);
    expect(await exists('access_log_default_expired')).toBe(false);
    await expect(sql`truncate access_log_default`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from access_log_default`.execute(t.db)).rejects.toThrow(/append-only/);
    const again = await runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] });
    expect(again.accessLogMonths).toEqual([]);
    const page = (await retentionPage('root')).json();
    expect(page.accessLog.monthsDue).toEqual([]);
    expect(page.runs.some((r: { accessLogMonths: string[] }) => r.accessLogMonths.length > 0)).toBe(true);
  });

  it('keeps all of it while a scope asks for no limit', async () => {
    await t.db
      .updateTable('configuration_entries')
      .set({
        data: JSON.stringify({
          deleteFilesAfterMonths: null,
          deIdentifyAfterMonths: null,
          keepAccessLogMonths: null,
        }),
      })
      .where('type', '=', 'retentionEntry')
      .where('configuration_id', '=', 'retorgacme')
      .execute();
    invalidateConfigurationCache(t.db);
    const page = (await retentionPage('root')).json();
    expect(page.accessLog).toEqual({ keepMonths: null, monthsDue: [] });
    const run = await runRetention(ctx(), { kind: 'scheduled', actor: null, within: ['/'] });
    expect(run.accessLogMonths).toEqual([]);
    expect(await exists(monthAgo(36))).toBe(true);
  });

  it("still refuses UPDATE and DELETE on the application's connection, and a drop of the last year", async () => {
    await expect(sql`delete from access_log`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(sql`update access_log set user_id = 'x'`.execute(t.db)).rejects.toThrow(/append-only/);
    await expect(
      sql`select access_log_drop_months_before(now() - interval '6 months')`.execute(t.db),
    ).rejects.toThrow(/keeps at least 12 months/);
    expect(await exists(monthAgo(12))).toBe(true);
    expect(await exists('access_log_default')).toBe(true);
  });
});
