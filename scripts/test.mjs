// npm test: every test there is. Unit tests (core, web), the server's integration tests on the
// embedded PostgreSQL and, when one answers at 127.0.0.1:5432, once more on that server, then the
// browser journeys in Debian's Chromium against the built app.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { canConnect, ensureBuilt, ensureDependencies, root, run } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

ensureDependencies();
ensureBuilt();

if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log('[dossier] installing Debian chromium for the browser tests');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  } else {
    console.error(`[dossier] ${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`);
    process.exit(1);
  }
}

const steps = [
  ['unit tests', 'npx', ['vitest', 'run', '--project', 'core', '--project', 'web'], {}],
  ['integration tests (embedded PostgreSQL)', 'npx', ['vitest', 'run', '--project', 'server'], { TEST_DB: 'embedded' }],
];
const externalUrl = process.env.TEST_EXTERNAL_DATABASE_URL;
if (externalUrl || (await canConnect('127.0.0.1', 5432))) {
  steps.push([
    'integration tests (PostgreSQL at 127.0.0.1:5432)',
    'npx',
    ['vitest', 'run', '--project', 'server'],
    { TEST_DB: 'external' },
  ]);
} else {
  console.log('[dossier] no PostgreSQL at 127.0.0.1:5432: the external-database run is skipped');
}
steps.push(['browser journeys', 'npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts'], {}]);

let failed = 0;
for (const [name, command, args, env] of steps) {
  console.log(`\n[dossier] ${name}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    failed++;
    console.error(`[dossier] ${name}: FAILED`);
  }
}
console.log(`\n${steps.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
