// npm run bench:page — time to interactive of the dashboard on a cold cache (issue 15), in
// Debian's Chromium with the CPU slowed four times (CDP Emulation.setCPUThrottlingRate), against a
// Dossier instance started here like `npm run bench` does. Needs the production build
// (`npm run build`). Each run is a fresh browser context, so nothing is cached.
//
// Time to interactive, as Lighthouse defines it in spirit: from the navigation's start to the end
// of the last long task (over 50 ms on the main thread) before the thread stays quiet for
// PAGE_QUIET_MS, and never before the dashboard's tiles are on the screen.
import { chromium } from '@playwright/test';
import { startDossier } from './lib/servers.js';
import { DEMO_PASSWORD, DEMO_USER } from './lib/types.js';

const RUNS = Number(process.env.PAGE_RUNS ?? 5);
const CPU_SLOWDOWN = Number(process.env.PAGE_CPU_SLOWDOWN ?? 4);
const QUIET_MS = Number(process.env.PAGE_QUIET_MS ?? 2000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Run {
  domContentLoaded: number;
  dashboardShown: number;
  interactive: number;
  scriptKb: number;
  scripts: number;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function main() {
  const dossier = await startDossier(process.env.BENCH_DATABASE_URL);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    // One sign-in; every run starts from its cookie in an empty context.
    const signInContext = await browser.newContext();
    const signInPage = await signInContext.newPage();
    await signInPage.goto(`${dossier.url}/signin`);
    await signInPage.getByTestId('signin-username').fill(DEMO_USER);
    await signInPage.getByTestId('signin-password').fill(DEMO_PASSWORD);
    await signInPage.getByTestId('signin-submit').click();
    await signInPage.waitForURL((url) => !url.pathname.startsWith('/signin'));
    const storageState = await signInContext.storageState();
    await signInContext.close();

    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext({ storageState });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
      await page.addInitScript(() => {
        const w = window as unknown as { __longTaskEnds: number[] };
        w.__longTaskEnds = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.__longTaskEnds.push(entry.startTime + entry.duration);
        }).observe({ type: 'longtask', buffered: true });
      });
      await page.goto(`${dossier.url}/dashboard`);
      await page.getByTestId('dashboard-page').waitFor({ timeout: 120_000 });
      const dashboardShown = await page.evaluate(() => performance.now());
      // Wait for a quiet main thread: no long task ending within QUIET_MS.
      for (;;) {
        const quiet = await page.evaluate((ms) => {
          const ends = (window as unknown as { __longTaskEnds: number[] }).__longTaskEnds;
          const last = ends.length > 0 ? Math.max(...ends) : 0;
          return performance.now() - last >= ms;
        }, QUIET_MS);
        if (quiet) break;
        await page.waitForTimeout(250);
      }
      const measured = await page.evaluate(() => {
        const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
        const ends = (window as unknown as { __longTaskEnds: number[] }).__longTaskEnds;
        const scripts = performance
          .getEntriesByType('resource')
          .filter(
            (r) => (r as PerformanceResourceTiming).initiatorType === 'script' || r.name.endsWith('.js'),
          )
          .map((r) => r as PerformanceResourceTiming);
        return {
          domContentLoaded: nav.domContentLoadedEventEnd,
          lastLongTask: ends.length > 0 ? Math.max(...ends) : 0,
          scriptBytes: scripts.reduce((sum, r) => sum + r.transferSize, 0),
          scripts: scripts.length,
        };
      });
      runs.push({
        domContentLoaded: measured.domContentLoaded,
        dashboardShown,
        interactive: Math.max(dashboardShown, measured.lastLongTask),
        scriptKb: measured.scriptBytes / 1024,
        scripts: measured.scripts,
      });
      const r = runs[runs.length - 1] as Run;
      console.log(
        `run ${i + 1}: DOMContentLoaded ${r.domContentLoaded.toFixed(0)} ms, dashboard shown ${r.dashboardShown.toFixed(0)} ms, interactive ${r.interactive.toFixed(0)} ms, ${r.scripts} scripts ${r.scriptKb.toFixed(1)} KB transferred`,
      );
      await context.close();
    }
    console.log(
      `\ndashboard, cold cache, CPU ${CPU_SLOWDOWN}x slower, median of ${RUNS}: ` +
        `DOMContentLoaded ${median(runs.map((r) => r.domContentLoaded)).toFixed(0)} ms, ` +
        `dashboard shown ${median(runs.map((r) => r.dashboardShown)).toFixed(0)} ms, ` +
        `time to interactive ${median(runs.map((r) => r.interactive)).toFixed(0)} ms, ` +
        `script ${median(runs.map((r) => r.scriptKb)).toFixed(1)} KB transferred`,
    );
  } finally {
    await browser.close();
    await dossier.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
