import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/http/routeTable.js';
import type { TestContext } from '../helpers.js';
import {
  CALLERS,
  type Caller,
  EXCLUDED,
  type Expectation,
  type Fixtures,
  MATRIX,
  NEVER_SHOWN,
  OUTSIDERS,
  RECIPIENTS,
  SECRETS,
} from './matrix.js';
import { call, holdsApiKey, setUpMatrix } from './matrixFixtures.js';
import { writeSummary } from './summary.js';

// The authorization matrix (issue 13): every route of the route table, called by every caller of
// matrix.ts with the ids of real objects of /org/acme/, answers as the expectation table says —
// allowed past authorization, or refused (401/403/404) without naming any acme object. A route
// missing from the table fails; known defects are skipped and printed with the summary.

let t: TestContext;
let f: Fixtures;

beforeAll(async () => {
  ({ t, f } = await setUpMatrix());
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The acme object each path parameter names, unless the entry gives it. */
function defaultParams(): Record<string, string> {
  return {
    requestNumber: f.requestNumber,
    resultId: f.resultId,
    invoiceId: f.invoiceId,
    taskId: f.taskId,
    draftId: f.draftId,
    key: f.resultFileKey,
    userId: f.userId,
    claimId: f.claimId,
    recipientId: f.recipientId,
    payeeId: f.payeeId,
    mailId: f.mailId,
    c: f.configurationId,
    configuration: f.configurationId,
    id: f.configurationEntryId,
    organization: encodeURIComponent('/org/acme/'),
    token: f.recipientToken,
  };
}

function urlOf(route: RouteEntry, e: Expectation): string {
  const values = { ...defaultParams(), ...(e.params?.(f) ?? {}) };
  const path = route.url
    .replace(/:(\w+)/g, (_m, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`${route.method} ${route.url}: no value for :${name}`);
      return value.startsWith('%') ? value : encodeURIComponent(value);
    })
    .replace('*', () => values['*'] ?? 'x');
  return e.query ? `${path}?${e.query}` : path;
}

const isApi = (url: string) => url.startsWith('/api/v1/');

/** What a refusal of the caller looks like on this route. */
function refusalStatuses(caller: Caller, route: RouteEntry, e: Expectation): number[] {
  if (e.refusedAs) return e.refusedAs;
  const apiCaller = holdsApiKey(caller);
  // A SCIM token opens no session and no API call: elsewhere its caller is anonymous.
  // A recipient's page session is no session anywhere else: there its holder is anonymous.
  if (
    caller === 'anonymous' ||
    caller === 'scimAcme' ||
    RECIPIENTS.includes(caller) ||
    apiCaller !== isApi(route.url)
  )
    return [401];
  return [403, 404];
}

const leaked = (body: string) =>
  (Object.entries(SECRETS) as [keyof typeof SECRETS, string][]).filter(([, s]) => body.includes(s));

/** The tables of the acme objects: a write refused to every refused caller leaves them as they were. */
const OBJECT_TABLES = [
  'requests',
  'request_results',
  'request_invoices',
  'correspondence',
  'tasks',
  'request_drafts',
  'files',
  'inbox_messages',
  'users',
  'user_roles',
  'role_claims',
  'recipients',
  'payees',
  'configurations',
  'configuration_entries',
  'mail_outbox',
  'task_skills',
] as const;

async function objectsChecksum(): Promise<Map<string, string>> {
  const parts = OBJECT_TABLES.map(
    (
      table,
    ) => sql`select ${table} as name, md5(coalesce(string_agg(md5(x::text), '' order by md5(x::text)), '')) as h
      from ${sql.table(table)} x`,
  );
  const r = await sql<{ name: string; h: string }>`${sql.join(parts, sql` union all `)}`.execute(t.db);
  return new Map(r.rows.map((row) => [row.name, row.h]));
}

/** A status, and the acme objects the answer names. */
function outcome(res: { status: number; body: string }): string {
  const shown = leaked(res.body).map(([k]) => k);
  return shown.length ? `${res.status}, shows ${shown.join(', ')}` : String(res.status);
}

interface Cell {
  route: RouteEntry;
  name: string;
  e: Expectation;
}

describe('authorization matrix', () => {
  it('has an expectation for every route of the route table', () => {
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    const missing = routes.filter((r) => !MATRIX[r] && !EXCLUDED[r]);
    const stale = [...Object.keys(MATRIX), ...Object.keys(EXCLUDED)].filter((r) => !routes.includes(r));
    expect(missing, 'routes without an entry in test/security/matrix.ts').toEqual([]);
    expect(stale, 'entries of matrix.ts for routes that no longer exist').toEqual([]);
  });

  it('lets a user whose roles were just removed through only where a user without roles passes', () => {
    const differ = Object.entries(MATRIX).flatMap(([name, entry]) =>
      (Array.isArray(entry) ? entry : [entry])
        .filter((e) => e.allow.includes('revokedHandlerAcme') !== e.allow.includes('newcomer'))
        .map((e) => (e.variant ? `${name} [${e.variant}]` : name)),
    );
    expect(differ).toEqual([]);
  });

  it('lets through exactly the allowed callers, and refusals tell nothing of acme', async () => {
    const cells: Cell[] = [];
    for (const route of t.app.routeTable) {
      const name = `${route.method} ${route.url}`;
      const entry = MATRIX[name];
      if (!entry || EXCLUDED[name]) continue;
      for (const e of Array.isArray(entry) ? entry : [entry]) cells.push({ route, name, e });
    }
    // Reads first, then writes, then what changes the objects for good (close, discard, delete).
    cells.sort((a, b) => (a.e.order ?? 0) - (b.e.order ?? 0));

    const failures: string[] = [];
    const known: string[] = [];
    /** Route (and why) → the refused callers an empty body got a 400. */
    const validatesFirst = new Map<string, Caller[]>();
    const covered = new Set<string>();
    const grid: { route: string; caller: Caller; expected: string; status: number }[] = [];
    let checked = 0;
    let allowedCells = 0;
    let refusedCells = 0;

    for (const { route, name, e } of cells) {
      covered.add(name);
      const label = e.variant ? `${name} [${e.variant}]` : name;
      const url = urlOf(route, e);
      const hasBody = !['GET', 'DELETE', 'OPTIONS', 'TRACE'].includes(route.method);
      const body = hasBody ? (e.body?.(f) ?? {}) : undefined;
      const allowed = new Set(e.allow);
      // Refused callers first: an allowed one may change the object (complete the task, close).
      // Known defects after the refusals (which must have changed nothing), before the allowed.
      const rank = (c: Caller) => (allowed.has(c) ? 2 : e.knownDefects?.[c] ? 1 : 0);
      const order = [...CALLERS].sort((a, b) => rank(a) - rank(b));
      const before = hasBody || route.method === 'DELETE' ? await objectsChecksum() : undefined;
      let refusalsChecked = false;
      const checkRefusalsChangedNothing = async () => {
        if (!before || refusalsChecked) return;
        refusalsChecked = true;
        const after = await objectsChecksum();
        const changed = [...after].filter(([table, h]) => before.get(table) !== h).map(([table]) => table);
        if (changed.length) failures.push(`${label}: the refused callers changed ${changed.join(', ')}`);
      };
      for (const caller of order) {
        const defect = e.knownDefects?.[caller];
        if (rank(caller) > 0) await checkRefusalsChangedNothing();
        if (allowed.has(caller)) {
          const res = await call(caller, route.method, url, body);
          grid.push({
            route: label,
            caller,
            expected: defect ? 'knownDefect' : 'allowed',
            status: res.status,
          });
          if (defect) {
            known.push(`${label} as ${caller} (${outcome(res)}): ${defect}`);
            continue;
          }
          checked++;
          allowedCells++;
          const ok = (res.status >= 200 && res.status < 400) || (e.pastAuth ?? []).includes(res.status);
          if (!ok)
            failures.push(`${label} as ${caller}: allowed, answered ${res.status} ${res.body.slice(0, 160)}`);
          const missed = (e.shows ?? []).filter((secret) => !res.body.includes(SECRETS[secret]));
          if (!OUTSIDERS.includes(caller) && missed.length)
            failures.push(
              `${label} as ${caller}: allowed, but the answer does not show ${missed.join(', ')}`,
            );
          const hidden = (NEVER_SHOWN[caller] ?? []).filter((secret) => res.body.includes(SECRETS[secret]));
          if (hidden.length) failures.push(`${label} as ${caller}: is shown ${hidden.join(', ')}`);
          if (OUTSIDERS.includes(caller)) {
            const shown = leaked(res.body).filter(([secret]) => !e.mayShow?.secrets.includes(secret));
            if (shown.length)
              failures.push(
                `${label} as ${caller}: an outsider is shown ${shown.map(([k]) => k).join(', ')}`,
              );
          }
          continue;
        }
        const refusedAs = refusalStatuses(caller, route, e);
        // The empty probes: a route that answers a refused caller's empty body (or empty query) with
        // a 400 validated it before checking the caller; reported, and named in the table.
        const probes: [string, Promise<{ status: number }> | undefined][] = [
          ['body', hasBody && e.body ? call(caller, route.method, url, {}) : undefined],
          ['query', e.query ? call(caller, route.method, url.split('?')[0] ?? url, body) : undefined],
        ];
        for (const [what, probe] of probes) {
          if (!probe || (await probe).status !== 400 || refusedAs.includes(400)) continue;
          const note = `${name}: ${e.validatesFirst ?? `an empty ${what} gets a 400 before the caller is checked`}`;
          validatesFirst.set(note, [...new Set([...(validatesFirst.get(note) ?? []), caller])]);
          if (!e.validatesFirst)
            failures.push(`${label} as ${caller}: an empty ${what} is validated first (400)`);
        }
        const res = await call(caller, route.method, url, body);
        grid.push({ route: label, caller, expected: defect ? 'knownDefect' : 'refused', status: res.status });
        if (defect) {
          known.push(`${label} as ${caller} (${outcome(res)}): ${defect}`);
          continue;
        }
        checked++;
        refusedCells++;
        if (!refusedAs.includes(res.status)) {
          const why =
            res.status === 400
              ? ' (validated before the caller was checked)'
              : res.status < 400
                ? ' (ACCESS DEFECT)'
                : '';
          failures.push(
            `${label} as ${caller}: refused, expected ${refusedAs.join('/')}, answered ${res.status}${why} ${res.body.slice(0, 160)}`,
          );
        }
        const shown = leaked(res.body);
        if (shown.length)
          failures.push(`${label} as ${caller}: the refusal names ${shown.map(([k]) => k).join(', ')}`);
      }
      await checkRefusalsChangedNothing();
    }

    const routes = t.app.routeTable.length;
    writeSummary(
      'matrix',
      `[matrix] ${covered.size + Object.keys(EXCLUDED).length} of ${routes} routes in the table (${covered.size} called, ${Object.keys(EXCLUDED).length} excluded with a reason); ` +
        `${CALLERS.length} callers per route; ${checked} cells checked, ${known.length} known defects, ${failures.length} failures`,
    );
    console.log(
      [
        `[matrix] ${routes} routes in the route table, ${covered.size} covered, ${Object.keys(EXCLUDED).length} excluded; ` +
          `${CALLERS.length} callers per route; ${cells.length} route variants; ` +
          `${checked} cells checked (${allowedCells} allowed, ${refusedCells} refused), ${known.length} known defects skipped, ` +
          `${failures.length} failures`,
        ...(known.length ? ['[matrix] known defects:', ...known.map((k) => `  - ${k}`)] : []),
        ...(validatesFirst.size
          ? [
              '[matrix] validate their input before checking the caller (reported, no data shown):',
              ...[...validatesFirst].map(([v, callers]) => `  - ${v} (400 to ${callers.join(', ')})`),
            ]
          : []),
        ...(failures.length ? ['[matrix] failures:', ...failures.map((x) => `  - ${x}`)] : []),
      ].join('\n'),
    );
    // MATRIX_REPORT=<file> writes every cell (route, caller, expectation, status) for review.
    if (process.env.MATRIX_REPORT) writeFileSync(process.env.MATRIX_REPORT, JSON.stringify(grid, null, 1));
    expect(failures).toEqual([]);
  }, 300_000);
});
