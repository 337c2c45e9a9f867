import pg from 'pg';
import { measure } from '../lib/load.js';
import { type BenchCase, DEMO_USER } from '../lib/types.js';

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
 * The same page while people work: every 250 ms a notification is added to the handler and one to
 * another user, and both are deleted again. Each change for the handler drops the handler's kept
 * page (features/home/cache.ts), so the next load reads it; the other user's leaves it kept.
 */
export const homeViewChanging: BenchCase = {
  ...authenticatedGet(
    'home-view-changing',
    '/',
    `GET / as handler while its page and another user's change every ${CHANGE_EVERY_MS} ms`,
  ),
  async run(ctx, target, load) {
    const writer = new pg.Client({ connectionString: await ctx.databaseUrl() });
    await writer.connect();
    let writes = 0;
    const change = async (userId: string) => {
      // Two statements: a delete in the same statement as the insert would not see the new row.
      const added = await writer.query(
        `insert into notifications (user_id, type, target, text) values ($1, 'benchChange', '/', 'bench') returning id`,
        [userId],
      );
      await writer.query('delete from notifications where id = $1', [added.rows[0]?.id]);
      writes++;
    };
    const timer = setInterval(
      () => void Promise.all([change(DEMO_USER), change('admin')]).catch(() => undefined),
      CHANGE_EVERY_MS,
    );
    try {
      const row = await measure('home-view-changing', target, load, ctx.settings);
      return { ...row, note: `${writes} changes while it ran, half of them the handler's` };
    } finally {
      clearInterval(timer);
      await writer.end();
    }
  },
};
