import pg from 'pg';
import { measure } from '../lib/load.js';
import type { BenchCase } from '../lib/types.js';

// JSON requests of a signed-in client: session resolution (a query or two) plus the route's own work.

function authenticatedGet(name: string, pathname: string, description: string): BenchCase {
  return {
    name,
    description,
    async target(ctx) {
      return {
        url: `${await ctx.dossierUrl()}${pathname}`,
        headers: { 'x-requested-with': 'XMLHttpRequest', cookie: await ctx.sessionCookie() },
      };
    },
  };
}

export const notificationsActive = authenticatedGet(
  'notifications-active',
  '/notifications/active',
  'GET /notifications/active as handler: session + count query',
);

/** Nothing changes while it runs: after each session's first load the page is the kept one. */
export const homeView = authenticatedGet(
  'home-view',
  '/',
  'GET / as JSON view (X-Requested-With) as handler: session + view',
);

const CHANGE_EVERY_MS = 250;

/**
 * The same page while someone works: another user's notification is added every 250 ms, which
 * makes every instance forget its kept pages (features/home/cache.ts) and keep none for a second.
 * So every load reads the page: what the home view costs in a busy hour.
 */
export const homeViewChanging: BenchCase = {
  ...authenticatedGet(
    'home-view-changing',
    '/',
    `GET / as handler while a write changes what the page reads every ${CHANGE_EVERY_MS} ms`,
  ),
  async run(ctx, target, load) {
    const writer = new pg.Client({ connectionString: await ctx.databaseUrl() });
    await writer.connect();
    let writes = 0;
    const change = async () => {
      await writer.query(
        `with n as (insert into notifications (user_id, type, target, text)
           select id, 'benchChange', '/', 'bench' from users where id = 'admin' returning id)
         delete from notifications where id in (select id from n)`,
      );
      writes++;
    };
    const timer = setInterval(() => void change().catch(() => undefined), CHANGE_EVERY_MS);
    try {
      const row = await measure('home-view-changing', target, load, ctx.settings);
      return { ...row, note: `${writes} changes while it ran` };
    } finally {
      clearInterval(timer);
      await writer.end();
    }
  },
};
