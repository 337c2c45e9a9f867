import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushAccessLogs } from '../../src/audit/accessLog.js';
import { seedConfiguration } from '../../src/db/seedConfiguration.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import type { RouteEntry } from '../../src/http/routeTable.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { addApiKey, apiToken, type TestApiKey } from '../support/apiKeys.js';
import { insertTestRequest } from '../support/requests.js';
import { uploadPdf } from '../support/resultsInvoices.js';
import { encode, hostileString, hostileValue } from './hostile.js';
import { recipientSession } from './matrixRecipient.js';
import { writeSummary } from './summary.js';

// Property-based fuzzing of every route in the app's route table with fast-check: hostile values in
// every path parameter, query field and body field, as an administrator, a submitter, anonymous and
// a public-API key. Properties: never a 5xx; a route that refused every case changed no row; the
// app still answers /healthz. FUZZ_RUNS cases per route (npm test: 20; npm run test:security: 200);
// FUZZ_SEED replays a failure (fast-check prints the seed and the case).
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {};
const external = process.env.TEST_DB === 'external';

/** Routes that cannot be fuzzed over app.inject(), with why. */
const NOT_FUZZED: Record<string, string> = {
  'GET /__ws': 'a websocket upgrade (covered by the live tests)',
  'GET /assets/*': 'static files from disk',
  'POST /signout': 'ends the fuzzing session; takes no input',
};

/** Refusals that are recorded by design: a wrong password counts towards the account's lockout. */
const REFUSAL_RECORDED: Record<string, string[]> = {
  'POST /signin': ['users', 'signin_failures'],
  'POST /account/change-password': ['users', 'signin_failures'],
  'POST /api/v1/users/credentials/verify': ['users', 'signin_failures'],
  // Wrong passcodes lock the recipient's link (issue 34): recorded in its history.
  'POST /r/:token/passcode': ['recipient_accesses', 'recipient_sessions', 'events'],
  // A call with the recipient's session is a use of its link (last used), refused or not.
  'POST /r/:token/answers': ['recipient_accesses'],
  'POST /r/:token/files': ['recipient_accesses'],
  'GET /r/:token/files/:key': ['recipient_accesses'],
};

/** Tables that change on every request or refusal by design (sessions seen, rate counters). */
const VOLATILE = new Set([
  'sessions',
  'recipient_sessions',
  'rate_events',
  'presence',
  'api_token_ids',
  'kysely_migration_lock',
]);

let t: TestContext;
const ids: Record<string, string[]> = {};
let key: TestApiKey;
let fuzzUsers = 0;

beforeAll(async () => {
  if (external) return;
  t = await createTestContext({ selfRegistration: true });
  await seedConfiguration(t.db, { demo: true });
  invalidateConfigurationCache(t.db);
  await createUser(t.db, { id: 'owner', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  const owner = await signIn(t.app, 'owner');
  const requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM' });
  const fileKey = await uploadPdf(t, owner);
  ids.requestNumber = [requestNumber];
  ids.key = [fileKey];
  ids.userId = ['owner'];
  ids.organization = ['/org/acme/', encodeURIComponent('/org/acme/')];
  ids.action = [
    'addNote',
    'addTask',
    'closeRequest',
    'issueRequest',
    'reOpenRequest',
    'placeLegalHold',
    'removeLegalHold',
    'link',
    'unlink',
    'resend',
    'pay',
    'discard',
  ];
  ids.part = ['applicant', 'recipient', 'content', 'sender'];
  ids.bind = ['activeTasks', 'correspondence', 'results', 'closedRequests', 'openRequests'];
  ids.c = ['root'];
  ids.configuration = ['root'];
  key = await addApiKey(t.db, {
    kid: 'fuzz-key',
    scopePath: '/',
    apiScopes: [
      'requestRead',
      'requestWrite',
      'fileRead',
      'fileWrite',
      'invoiceRead',
      'invoiceWrite',
      'payeeRead',
      'payeeWrite',
      'userRead',
    ] as never,
  });
}, 60_000);
afterAll(async () => {
  if (!external) await t.close();
});

/** A fresh administrator and submitter for each route, so what one route's fuzzing did to its caller
 * (a password changed, an account disabled) cannot hide another route's behaviour. */
async function callers(): Promise<Record<string, Record<string, string>>> {
  const n = ++fuzzUsers;
  await createUser(t.db, { id: `fuzzadmin${n}`, roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: `fuzzsub${n}`,
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  // A fresh link of the request, signed in on the recipient's page: what one route's fuzzing did
  // to it (locked by wrong passcodes) hides nothing of the next route.
  const recipient = await recipientSession(t, ids.requestNumber?.[0] ?? '', '/org/acme/');
  ids.token = [recipient.token];
  return {
    recipient: { ...XHR, cookie: recipient.cookie },
    admin: { ...XHR, cookie: await signIn(t.app, `fuzzadmin${n}`) },
    submitter: { ...XHR, cookie: await signIn(t.app, `fuzzsub${n}`) },
    anonymous: { ...XHR },
    csrfless: { cookie: await signIn(t.app, `fuzzadmin${n}`) },
  };
}

interface FuzzCase {
  caller: string;
  url: string;
  /** None for a GET or DELETE. */
  body: { payload: string; contentType: string } | undefined;
}

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

function caseFor(route: RouteEntry): fc.Arbitrary<FuzzCase> {
  const params = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const paramValues = params.map((name) =>
    fc.oneof(
      { weight: 2, arbitrary: ids[name]?.length ? fc.constantFrom(...(ids[name] ?? [])) : hostileString },
      { weight: 1, arbitrary: fc.constant(randomUUID()) },
      { weight: 2, arbitrary: hostileString },
    ),
  );
  const queryKeys = [...shapeKeys(route.schema?.querystring), 'q', 'pageSize', 'return-url'];
  const query = fc.array(fc.tuple(fc.constantFrom(...queryKeys), hostileString), { maxLength: 4 });
  const bodyKeys = shapeKeys(route.schema?.body);
  const jsonBody = fc
    .oneof(
      {
        weight: 3,
        arbitrary: bodyKeys.length ? fc.dictionary(fc.constantFrom(...bodyKeys), hostileValue) : hostileValue,
      },
      { weight: 2, arbitrary: hostileValue },
    )
    .map((v) => ({ payload: JSON.stringify(v) ?? 'null', contentType: 'application/json' }));
  const oddBody = fc.oneof(
    fc.constant({ payload: '{"a":', contentType: 'application/json' }),
    fc.constant({ payload: 'a=1&a=2&__proto__[x]=1', contentType: 'application/x-www-form-urlencoded' }),
    hostileString.map((s) => ({ payload: s, contentType: 'text/plain' })),
  );
  const hasBody = !['GET', 'DELETE'].includes(route.method);
  return fc
    .record({
      caller: fc.constantFrom(
        'admin',
        'admin',
        'admin',
        'submitter',
        'anonymous',
        'csrfless',
        'api',
        'recipient',
      ),
      params: fc.tuple(...paramValues),
      query,
      body: hasBody
        ? fc.oneof({ weight: 4, arbitrary: jsonBody }, { weight: 1, arbitrary: oddBody })
        : fc.constant(undefined),
    })
    .map(({ caller, params: values, query: pairs, body }) => {
      let i = 0;
      const path = route.url
        .replace(/:(\w+)/g, () => encode(String(values[i++] ?? '')))
        .replace('*', () => encode(String(values[0] ?? 'x')));
      const qs = pairs.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
      return { caller, url: qs ? `${path}?${qs}` : path, body };
    });
}

async function checksum(): Promise<Map<string, string>> {
  const tables = await sql<{ name: string }>`
    select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`.execute(
    t.db,
  );
  const parts = new Map<string, string>();
  for (const { name } of tables.rows) {
    if (VOLATILE.has(name)) continue;
    const r = await sql<{
      h: string;
    }>`select md5(coalesce(string_agg(md5(x::text), '' order by md5(x::text)), '')) as h from ${sql.table(name)} x`.execute(
      t.db,
    );
    parts.set(name, r.rows[0]?.h ?? '');
  }
  return parts;
}

describe.skipIf(external)('fuzzing every route', () => {
  it('covers every route of the route table', () => {
    const routes = t.app.routeTable.map((r) => `${r.method} ${r.url}`);
    expect(routes.length).toBeGreaterThan(100);
    for (const skipped of Object.keys(NOT_FUZZED)) expect(routes).toContain(skipped);
  });

  it('answers every hostile input to every route with less than 500, and a refusal changes nothing', async () => {
    let cases = 0;
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    for (const route of t.app.routeTable) {
      const name = `${route.method} ${route.url}`;
      if (NOT_FUZZED[name]) continue;
      const headersOf = await callers();
      // Reads are logged off the request's path (audit/accessLog.ts): what earlier routes read is
      // written now, so that it does not count as this route's change.
      await flushAccessLogs();
      const before = await checksum();
      let allRefused = true;
      try {
        await fc.assert(
          fc.asyncProperty(caseFor(route), async (c) => {
            cases++;
            const headers: Record<string, string> =
              c.caller === 'api'
                ? { authorization: `Bearer ${await apiToken(key)}` }
                : { ...(headersOf[c.caller] ?? {}) };
            if (c.body) headers['content-type'] = c.body.contentType;
            const res = await t.app.inject({
              method: route.method as 'GET',
              url: c.url,
              headers,
              ...(c.body === undefined ? {} : { payload: c.body.payload }),
            });
            const status = `${Math.floor(res.statusCode / 100)}xx`;
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
            if (res.statusCode < 400) allRefused = false;
            if (res.statusCode >= 500) throw new Error(`${res.statusCode} ${res.body.slice(0, 300)}`);
          }),
          { numRuns: RUNS, ...SEED, endOnFailure: true },
        );
        if (allRefused) {
          await flushAccessLogs();
          const after = await checksum();
          const changed = [...after]
            .filter(([table, hash]) => before.get(table) !== hash && !REFUSAL_RECORDED[name]?.includes(table))
            .map(([table]) => table);
          if (changed.length) failures.push(`${name}: refused every case but changed ${changed.join(', ')}`);
        }
      } catch (error) {
        failures.push(
          `${name}: ${error instanceof Error ? error.message.split('\n').slice(0, 6).join(' | ') : String(error)}`,
        );
      }
    }
    const serverErrors = [...statuses].filter(([k]) => k.startsWith('5')).reduce((n, [, v]) => n + v, 0);
    const line = `[fuzz] ${t.app.routeTable.length} routes, ${Object.keys(NOT_FUZZED).length} not fuzzed, ${cases} cases of ${RUNS} runs per route (${[...statuses].map(([k, v]) => `${k} ${v}`).join(', ')}), ${serverErrors} 5xx, ${failures.length} failures`;
    console.log(line);
    writeSummary('fuzz', line);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect(failures).toEqual([]);
  }, 900_000);
});
