// npm test: every test there is. Unit tests (core, web), the server's integration tests on the
// embedded PostgreSQL and, when one answers at 127.0.0.1:5432, once more on that server, then the
// browser journeys in Debian's Chromium against the built app.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { canConnect, ensureBuilt, ensureDependencies, root, run } from './lib.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

ensureDependencies();
ensureBuilt();

if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() === 0) {
    console.log('[dossier] installing Debian chromium for the browser tests');
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'chromium'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } else {
    console.error(
      `[dossier] ${CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium)`,
    );
    process.exit(1);
  }
}

// The several-instances test runs the server behind a real HAProxy; the letter and document tests
// read PDFs as a recipient's reader does, with poppler's pdftotext.
const missing = [
  ['haproxy', ['-v'], 'haproxy'],
  ['pdftotext', ['-v'], 'poppler-utils'],
].filter(([command, args]) => spawnSync(command, args).status !== 0);
if (missing.length > 0 && process.getuid?.() === 0) {
  const packages = missing.map(([, , pkg]) => pkg);
  console.log(`[dossier] installing Debian ${packages.join(', ')} for the tests`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...packages], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

// Each step writes a JSON report; the last line sums up the tests of all of them.
const report = (name) => path.join(root, '.tmp', 'reports', `${name}.json`);
fs.rmSync(path.join(root, '.tmp', 'reports'), { recursive: true, force: true });
fs.mkdirSync(path.join(root, '.tmp', 'reports'), { recursive: true });
const vitest = (name, projects) => [
  'vitest',
  'run',
  ...projects.flatMap((p) => ['--project', p]),
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${report(name)}`,
];

const steps = [
  {
    name: 'unit tests',
    args: vitest('unit', ['core', 'web']),
    env: {},
    kind: 'vitest',
    file: report('unit'),
  },
  {
    name: 'integration tests (embedded PostgreSQL)',
    args: vitest('embedded', ['server']),
    env: { TEST_DB: 'embedded' },
    kind: 'vitest',
    file: report('embedded'),
  },
];
if (process.env.TEST_EXTERNAL_DATABASE_URL || (await canConnect('127.0.0.1', 5432))) {
  steps.push({
    name: 'integration tests (PostgreSQL at 127.0.0.1:5432)',
    args: vitest('external', ['server']),
    env: { TEST_DB: 'external' },
    kind: 'vitest',
    file: report('external'),
  });
} else {
  console.log('[dossier] no PostgreSQL at 127.0.0.1:5432: the external-database run is skipped');
}
steps.push({
  name: 'browser journeys',
  args: ['playwright', 'test', '-c', 'e2e/playwright.config.ts'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: report('e2e') },
  kind: 'playwright',
  file: report('e2e'),
});

function counts(step) {
  try {
    const data = JSON.parse(fs.readFileSync(step.file, 'utf8'));
    if (step.kind === 'vitest') {
      // A file whose setup failed has no failed test (its tests are skipped) but failed all the same.
      const brokenFiles = data.testResults.filter(
        (file) => file.status === 'failed' && !file.assertionResults.some((a) => a.status === 'failed'),
      ).length;
      return {
        passed: data.numPassedTests,
        failed: data.numFailedTests + brokenFiles,
        skipped: data.numPendingTests + data.numTodoTests,
      };
    }
    const s = data.stats;
    return { passed: s.expected + s.flaky, failed: s.unexpected, skipped: s.skipped };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

/**
 * The names of the tests of a step with that outcome ('failed', or 'flaky': passed on a retry), so
 * the last lines of a long log say which.
 */
function testsThat(step, outcome) {
  try {
    const data = JSON.parse(fs.readFileSync(step.file, 'utf8'));
    if (step.kind === 'vitest') {
      return data.testResults.flatMap((file) =>
        file.assertionResults
          .filter((a) => outcome === 'failed' && a.status === 'failed')
          .map((a) => `${path.relative(root, file.name)} › ${a.fullName}`),
      );
    }
    const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
    return data.suites
      .flatMap(specs)
      .filter((spec) => spec.tests.some((t) => t.status === (outcome === 'failed' ? 'unexpected' : 'flaky')))
      .map((spec) => `${spec.file}:${spec.line} › ${spec.title}`);
  } catch {
    return [];
  }
}

const total = { passed: 0, failed: 0, skipped: 0 };
const failed = [];
const flaky = [];
let stepsFailed = 0;
for (const step of steps) {
  console.log(`\n[dossier] ${step.name}`);
  const result = spawnSync('npx', step.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const c = counts(step);
  if (result.status !== 0) {
    stepsFailed++;
    // A step that failed without a failing test (a crash, a timeout) still counts as a failure.
    if (c.failed === 0) c.failed = 1;
    console.error(`[dossier] ${step.name}: FAILED`);
  }
  for (const key of Object.keys(total)) total[key] += c[key];
  if (c.failed > 0) failed.push(`${step.name}:`, ...testsThat(step, 'failed').map((name) => `  ${name}`));
  flaky.push(...testsThat(step, 'flaky').map((name) => `  ${name}`));
}
if (flaky.length > 0) console.log(`\nPassed only on a retry:\n${flaky.join('\n')}`);
if (failed.length > 0) console.log(`\nFailed:\n${failed.join('\n')}`);
console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(stepsFailed === 0 && total.failed === 0 ? 0 : 1);
