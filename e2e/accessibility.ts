import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, test as base, type Page, type TestInfo } from '@playwright/test';

// Every journey checks the pages it visits with axe-core (issue 15): the WCAG 2.0, 2.1 and 2.2 A
// and AA rules, failing on any serious or critical violation. A page is a view $type (the request
// page, the dashboard, a report...), checked once per run on its first visit, so the journeys do
// not pay for axe after every click. The check runs when a navigation has settled, alongside the
// journey; a journey that moves on while axe reads the page leaves that page for its next visit.

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);
const SETTLE_MS = 500;

/** Pages checked in this worker's run (journeys run in one worker, see playwright.config.ts). */
const checked = new Set<string>();

/** The serious and critical violations on the page as it is, one line per element. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the default opens a blank page in the context to
  // gather the frames' results, which hides the journey's tab (a hidden dashboard stops loading).
  const results = await new AxeBuilder({ page }).setLegacyMode(true).withTags(AXE_TAGS).analyze();
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ''))
    .flatMap((v) =>
      v.nodes.map((n) => {
        const data = (n.any[0]?.data ?? {}) as { fgColor?: string; bgColor?: string; contrastRatio?: number };
        const colours = data.fgColor ? ` (${data.fgColor} on ${data.bgColor}, ${data.contrastRatio}:1)` : '';
        return `${v.impact} ${v.id}: ${n.target.join(' ')}${colours}: ${v.help}`;
      }),
    );
}

const LOADING = 'loading';
const OUTSIDE = 'outside';

/**
 * The page's name for the check, its view $type; LOADING while a view fetch or a page chunk is on
 * its way; OUTSIDE for what the browser shows that is not the app (a file, a PDF, a raw answer).
 */
async function pageKey(page: Page): Promise<string> {
  return page.evaluate(
    ({ loading, outside }) => {
      if (document.querySelector('[data-testid="view-loading"], [data-testid="page-loading"]'))
        return loading;
      const type = document.querySelector('[data-testid="view"]')?.getAttribute('data-view-type');
      if (type) return type;
      return document.readyState === 'complete' && !document.getElementById('root') ? outside : loading;
    },
    { loading: LOADING, outside: OUTSIDE },
  );
}

/** Watches one page: checks each view it settles on; `finish` checks the last one and returns what was found. */
function watch(page: Page, testInfo: TestInfo) {
  const found: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = Promise.resolve();
  let done = false;

  const check = async () => {
    if (page.isClosed()) return;
    const key = await pageKey(page);
    if (key === LOADING) {
      if (!done) schedule();
      return;
    }
    if (key === OUTSIDE || checked.has(key)) return;
    const started = Date.now();
    let violations = await axeViolations(page);
    // A dropdown or a transition caught half-way (an options list opening, a panel sliding) is not
    // a page's state: what is found is read once more after a pause, and only what stays counts.
    if (violations.length > 0) {
      await page.waitForTimeout(SETTLE_MS);
      const again = new Set(await axeViolations(page));
      violations = violations.filter((v) => again.has(v));
    }
    // The check holds the page for a while on a busy machine: the journey is not charged for it.
    testInfo.setTimeout(testInfo.timeout + (Date.now() - started));
    // The journey navigated on while axe read the page: the result belongs to no one page.
    if ((await pageKey(page)) !== key) {
      if (!done) schedule();
      return;
    }
    checked.add(key);
    for (const v of violations) found.push(`${key} ${page.url()}\n    ${v}`);
  };
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(check).catch(() => {
        // The page navigated or closed under axe: the next visit checks it.
      });
    }, SETTLE_MS);
  };
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) schedule();
  });

  return async () => {
    done = true;
    clearTimeout(timer);
    await running;
    // The page the journey ends on, if nothing checked it yet.
    if (!page.isClosed()) await check().catch(() => {});
    return found;
  };
}

export const test = base.extend<{ accessibility: undefined }>({
  accessibility: [
    async ({ page, context, browser }, use, testInfo) => {
      const finishes: Array<() => Promise<string[]>> = [];
      const watchContext = (c: BrowserContext) => c.on('page', (p) => finishes.push(watch(p, testInfo)));
      finishes.push(watch(page, testInfo));
      watchContext(context);
      // Journeys with two people open their own contexts and pages (browser.newPage opens its
      // context through browser.newContext): while the journey runs, every context the browser
      // opens is watched too.
      const { newContext } = browser;
      browser.newContext = async (...args) => {
        const c = await newContext.apply(browser, args);
        watchContext(c);
        return c;
      };
      try {
        await use(undefined);
      } finally {
        browser.newContext = newContext;
      }
      const found = (await Promise.all(finishes.map((finish) => finish()))).flat();
      if (found.length > 0) {
        await testInfo.attach('accessibility', { body: found.join('\n'), contentType: 'text/plain' });
        throw new Error(`axe-core: serious or critical violations (WCAG 2.2 A/AA)\n  ${found.join('\n  ')}`);
      }
    },
    { auto: true },
  ],
});
