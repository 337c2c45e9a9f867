import type { FastifyInstance } from 'fastify';

// A browser's part in single sign-on tests: Dossier through inject, the provider over HTTP with its
// cookies.

export const DOSSIER = 'http://localhost';

/** One request to the provider with the cookies it set before, keeping the ones it sets now. */
export async function providerFetch(jar: Map<string, string>, url: URL, form?: Record<string, string>) {
  const res = await fetch(url, {
    redirect: 'manual',
    method: form ? 'POST' : 'GET',
    headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    body: form ? new URLSearchParams(form) : null,
  });
  for (const line of res.headers.getSetCookie()) {
    const [pair = ''] = line.split(';'); // split always yields a first part
    const [name = '', ...value] = pair.split('=');
    jar.set(name, value.join('='));
  }
  return res;
}

/** Answers "Yes, sign me out" on the provider's sign-out page; answers where it sends the browser. */
export async function signOutAtProvider(jar: Map<string, string>, url: URL) {
  const page = await providerFetch(jar, url);
  const html = await page.text();
  const action = /action="([^"]+)"/.exec(html)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  if (!action || !xsrf) throw new Error(`no sign-out form at ${url}: ${page.status} ${html}`);
  const done = await providerFetch(jar, new URL(action, url), { xsrf, logout: 'yes' });
  return done.headers.get('location');
}

/** Follows redirects like a browser: Dossier through inject, the provider over HTTP with its cookies. */
export async function browse(
  app: FastifyInstance,
  start: string,
  cookie = '',
  jar = new Map<string, string>(),
) {
  let url = new URL(start, DOSSIER);
  for (let hop = 0; hop < 20; hop++) {
    if (url.origin === DOSSIER) {
      const res = await app.inject({ url: url.pathname + url.search, headers: cookie ? { cookie } : {} });
      const session = res.cookies.find((c) => c.name === 'dossier_session');
      if (session) cookie = `dossier_session=${session.value}`;
      if (res.statusCode !== 303 || !res.headers.location) return { res, cookie, url };
      url = new URL(res.headers.location, url);
      continue;
    }
    let res = await providerFetch(jar, url);
    if (res.status === 200) {
      // A page that submits its own form at once (the provider ending its session of another
      // account before a new login): posted as the browser would.
      const html = await res.text();
      const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`provider stopped at ${url} with ${res.status}: ${html}`);
      const fields = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]]),
      );
      res = await providerFetch(jar, new URL(action, url), fields);
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${url} with ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects');
}
