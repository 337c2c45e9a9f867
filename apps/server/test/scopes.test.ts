import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeAtOrUnder, scopeCovers } from '../src/db/scopes.js';
import { mayHandleScope } from '../src/features/assignment/repository.js';
import { createTestContext, createUser, type TestContext } from './helpers.js';

// `_` and `%` are valid in scope ids and are LIKE wildcards: a scope test must take them literally.
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

async function holds(test: ReturnType<typeof scopeAtOrUnder>): Promise<boolean> {
  const row = await sql<{ ok: boolean }>`select ${test} as ok`.execute(t.db);
  return row.rows[0]?.ok === true;
}

describe('scope matching', () => {
  it('takes _ and % in scope ids literally', async () => {
    expect(await holds(scopeAtOrUnder(sql.lit('/org/a_b/x/'), '/org/a_b/'))).toBe(true);
    expect(await holds(scopeAtOrUnder(sql.lit('/org/axb/'), '/org/a_b/'))).toBe(false);
    expect(await holds(scopeAtOrUnder(sql.lit('/org/anything/'), '/org/%/'))).toBe(false);
    expect(await holds(scopeCovers(sql.lit('/org/a_b/'), '/org/a_b/c/'))).toBe(true);
    expect(await holds(scopeCovers(sql.lit('/org/a_b/'), '/org/axb/'))).toBe(false);
    expect(await holds(scopeCovers(sql.lit('/org/%/'), '/org/acme/'))).toBe(false);
    expect(await holds(scopeCovers(sql.lit('/'), '/org/acme/'))).toBe(true);
  });

  it('does not let a handler at /org/a_b/ handle /org/axb/', async () => {
    await createUser(t.db, {
      id: 'underscore',
      scope: '/org/a_b/',
      roles: [{ role: 'c:roles:handler', scope: '/org/a_b/' }],
    });
    expect(await mayHandleScope(t.db, 'underscore', '/org/a_b/team/')).toBe(true);
    expect(await mayHandleScope(t.db, 'underscore', '/org/axb/')).toBe(false);
  });
});
