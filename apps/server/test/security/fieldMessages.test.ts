import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../../src/db/seedConfiguration.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { insertTestRequest } from '../support/requests.js';

// No validator's own wording reaches a page (issue 22 item 7): every route of the route table that
// takes a body is sent an empty body and a body whose every field has the wrong type, as an
// administrator. Each refusal must read as sentences about the fields: no zod text ("Invalid input:
// expected string, received undefined", "Too small: ..."), in the message or at a field.

const ZOD_WORDING =
  /expected|received|nonoptional|Invalid input|Invalid option|Too (big|small)|Invalid (string|email|url|uuid)|Unrecognized key/i;
/** A sentence: a capital (or a quote or digit) first, a full stop (or ? !) last. */
const SENTENCE = /^["'A-Z0-9].*[.?!]$/s;
// Signing out, and resetting the sweeper's own second factors (which ends its sessions, as it must),
// would leave every later route answering 401.
const SKIPPED = new Set([
  'POST /signout',
  'GET /__ws',
  'POST /admin/users/edit/:userId/second-factors/reset',
]);
const ACTIONS = ['addNote', 'addTask', 'closeRequest', 'issueRequest', 'reOpenRequest'];

let t: TestContext;
let cookie: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestContext({ selfRegistration: true });
  await seedConfiguration(t.db, { demo: true });
  invalidateConfigurationCache(t.db);
  await createUser(t.db, { id: 'sweeper', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  cookie = await signIn(t.app, 'sweeper');
  ids.requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM' });
  ids.userId = 'sweeper';
  ids.part = 'applicant';
}, 60_000);
afterAll(() => t.close());

const keysOf = (schema: unknown): string[] =>
  Object.keys((schema as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});

describe('refusals are sentences about fields', () => {
  it('no route answers a bad body with the validator’s own words', async () => {
    const problems: string[] = [];
    let refusals = 0;
    for (const route of t.app.routeTable) {
      const name = `${route.method} ${route.url}`;
      if (!['POST', 'PUT', 'PATCH'].includes(route.method) || SKIPPED.has(name)) continue;
      const urls = route.url.includes(':action')
        ? ACTIONS.map((a) => route.url.replace(':action', a))
        : [route.url];
      const wrongTypes = Object.fromEntries(keysOf(route.schema?.body).map((k) => [k, { wrong: [1] }]));
      for (const template of urls) {
        const url = template.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(ids[p] ?? 'x1'));
        for (const payload of [{}, wrongTypes]) {
          const res = await t.app.inject({
            method: route.method as 'POST',
            url,
            headers: { ...XHR, cookie },
            payload,
          });
          if (res.statusCode !== 400) continue;
          refusals++;
          const body = res.json() as { message: string; fields?: Record<string, string> };
          const texts = [body.message, ...Object.values(body.fields ?? {})];
          for (const text of texts)
            if (ZOD_WORDING.test(text) || !SENTENCE.test(text))
              problems.push(`${name} ${JSON.stringify(payload).slice(0, 60)}: ${text}`);
        }
      }
    }
    expect(refusals).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  }, 300_000);
});
