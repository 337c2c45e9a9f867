import type { BenchCase, BenchContext, Target } from '../lib/types.js';

// The request-handling targets (issue 5): the request page view and the find-requests search answer
// with p95 under 100 ms on a database of 1,000,000 requests. Run them against the database made by
// `npm run bench:generate` (BENCH_DATABASE_URL, see bench/README.md); on the bench's own small
// database they still run, but say little. The user is the bench's `handler` (role at /, so the
// visibility filter lets everything through and the search itself is what is measured).

const xhr = async (ctx: BenchContext) => ({
  'x-requested-with': 'XMLHttpRequest',
  cookie: await ctx.sessionCookie(),
});

/** A request number taken from the search itself: the newest of the database. */
async function someRequestNumber(ctx: BenchContext, query = ''): Promise<string | undefined> {
  const res = await fetch(`${await ctx.dossierUrl()}/requests/search?pageSize=1&${query}`, {
    headers: await xhr(ctx),
  });
  if (!res.ok)
    throw new Error(`GET /requests/search answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  const answer = (await res.json()) as { hits: { id: string }[] };
  return answer.hits[0]?.id;
}

async function searchTarget(ctx: BenchContext, query: string): Promise<Target> {
  const total = await fetch(`${await ctx.dossierUrl()}/requests/search?pageSize=1`, {
    headers: await xhr(ctx),
  })
    .then((r) => r.json() as Promise<{ total: number; totalIsCapped: boolean }>)
    .catch(() => undefined);
  return {
    url: `${await ctx.dossierUrl()}/requests/search?${query}`,
    headers: await xhr(ctx),
    note: `/requests/search?${decodeURIComponent(query)} (${total ? `${total.totalIsCapped ? 'over ' : ''}${total.total} requests visible` : 'size unknown'})`,
  };
}

function search(name: string, description: string, query: (ctx: BenchContext) => Promise<string>): BenchCase {
  return { name, description, target: async (ctx) => searchTarget(ctx, await query(ctx)) };
}

/** YYYY-MM-DD of a day this many days back. */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/** The calendar month before this one, as the search form sends it. */
function lastMonth(): { from: string; to: string } {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

export const requestView: BenchCase = {
  name: 'request-view',
  description: 'GET /requests/{n} as a JSON view (X-Requested-With) as handler: the request page',
  async target(ctx) {
    // An older, closed request has the most to show: tasks, correspondence, results, invoices.
    const n = await someRequestNumber(ctx, `submittedAtTo=${daysAgo(300)}`);
    if (!n) return { skip: 'no request in the database' };
    return {
      url: `${await ctx.dossierUrl()}/requests/${n}`,
      headers: await xhr(ctx),
      note: `/requests/${n}`,
    };
  },
};

export const findByApplicant = search(
  'find-applicant',
  'GET /requests/search by applicant name (3 letters, trigram) as handler',
  async () => 'subject=smi',
);

export const findByNumber = search(
  'find-number',
  'GET /requests/search by request number as handler',
  async (ctx) => {
    const n = await someRequestNumber(ctx, `submittedAtTo=${daysAgo(500)}`);
    return `requestNumber=${n ?? 'ACM'}`;
  },
);

export const findByDateAndScope = search(
  'find-date-scope',
  'GET /requests/search by submission dates (last month) within /org/acme/ as handler',
  async () => {
    const { from, to } = lastMonth();
    return `scope=${encodeURIComponent('/org/acme/')}&submittedAtFrom=${from}&submittedAtTo=${to}`;
  },
);

export const findFullText = search(
  'find-fulltext',
  'GET /requests/search full text with highlights (two words) as handler',
  async () => `q=${encodeURIComponent('olivia harbour')}`,
);

// A submitter of /org/acme/ sees only its organisation's requests (about 40% of the generated
// ones): the same search with the visibility filter at work.
export const findByApplicantAsSubmitter: BenchCase = {
  name: 'find-applicant-submitter',
  description: 'GET /requests/search by applicant name (3 letters, trigram) as submitter of /org/acme/',
  async target(ctx) {
    const headers = { 'x-requested-with': 'XMLHttpRequest', cookie: await ctx.sessionCookieOf('submitter') };
    return {
      url: `${await ctx.dossierUrl()}/requests/search?subject=smi`,
      headers,
      note: '/requests/search?subject=smi as submitter (/org/acme/ and below)',
    };
  },
};

export const requestCases: BenchCase[] = [
  requestView,
  findByApplicant,
  findByNumber,
  findByDateAndScope,
  findFullText,
  findByApplicantAsSubmitter,
];
