// npm run test:security: the authorization matrix, the fuzzing of every route, the regression tests
// of the known attack classes and the security headers (server suites), then the cross-site
// scripting corpus and the security policy in Chromium; ends with one summary of what was proven.
// FUZZ_RUNS sets the fuzz cases per route (200 here; npm test runs 20).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureBuilt, ensureDependencies, root } from './lib.mjs';

ensureDependencies();
ensureBuilt();
const summaries = path.join(root, '.tmp', 'security');
fs.rmSync(summaries, { recursive: true, force: true });

const steps = [
  ['vitest', 'run', '--project', 'server', 'apps/server/test/security'],
  ['playwright', 'test', '-c', 'e2e/playwright.config.ts', 'e2e/xss.spec.ts', 'e2e/csp.spec.ts'],
];
let failed = 0;
for (const args of steps) {
  const result = spawnSync('npx', args, {
    cwd: root,
    stdio: 'inherit',
    env: { FUZZ_RUNS: '200', TEST_DB: 'embedded', ...process.env },
  });
  if (result.status !== 0) failed++;
}

console.log('\n[security] summary');
for (const suite of ['matrix', 'fuzz', 'xss']) {
  const file = path.join(summaries, `${suite}.txt`);
  console.log(fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trim() : `[${suite}] did not finish`);
}
console.log(failed ? `[security] ${failed} of ${steps.length} steps FAILED` : '[security] all steps passed');
process.exit(failed ? 1 : 0);
