import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { routesDocument } from './routesDoc.js';

// docs/ROUTES.md lists every route of the app; this test fails when it is stale, and
// `npm run routes:doc` (ROUTES_DOC=write) writes it anew.

const repoRoot = resolve(import.meta.dirname, '../../..');
const target = join(repoRoot, 'docs/ROUTES.md');

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
});

it('docs/ROUTES.md lists every route of the app as it is', () => {
  const document = routesDocument(t.app.routeTable, repoRoot);
  if (process.env.ROUTES_DOC === 'write') writeFileSync(target, document);
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // a missing file is stale too
  }
  expect(current, 'docs/ROUTES.md is stale: run npm run routes:doc').toBe(document);
});
