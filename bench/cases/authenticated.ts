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

export const homeView = authenticatedGet(
  'home-view',
  '/',
  'GET / as JSON view (X-Requested-With) as handler: session + view',
);
