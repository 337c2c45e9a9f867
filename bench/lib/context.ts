import { startBare, startDossier } from './servers.js';
import type { Settings } from './settings.js';
import { type BenchContext, DEMO_PASSWORD, DEMO_USER } from './types.js';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `start` once, on first use; later calls share the result (or the failure). */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => {
    started ??= start();
    return started;
  };
}

/** Signs a demo user in and answers the Cookie header that carries the session. */
async function signIn(baseUrl: string, user: string): Promise<string> {
  const res = await fetch(`${baseUrl}/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-requested-with': 'XMLHttpRequest' },
    body: new URLSearchParams({ username: user, password: DEMO_PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c?.startsWith('dossier_session='));
  if (!res.ok || !cookie) {
    throw new Error(`signing in as ${user} answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
  return cookie;
}

/**
 * What the cases get: servers started on first use, one session per demo user shared by the cases;
 * `stopAll` stops whatever was started.
 */
export function createContext(settings: Settings): { ctx: BenchContext; stopAll: () => Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) {
      await stop().catch((error) => console.error(`stopping a server failed: ${errorText(error)}`));
    }
  };
  const dossier = once(async () => {
    const started = Date.now();
    console.log('Starting Dossier (database, migrations, seed)…');
    const server = await startDossier(settings.databaseUrl);
    stops.push(server.stop);
    console.log(`  ready at ${server.url} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
    return server;
  });
  const cookies = new Map<string, Promise<string>>();
  const ctx: BenchContext = {
    settings,
    bareUrl: once(async () => {
      const server = await startBare();
      stops.push(server.stop);
      return server.url;
    }),
    dossierUrl: async () => (await dossier()).url,
    databaseUrl: async () => (await dossier()).databaseUrl,
    sessionCookie: () => ctx.sessionCookieOf(DEMO_USER),
    sessionCookieOf: (user) => {
      let cookie = cookies.get(user);
      if (!cookie) {
        cookie = ctx.dossierUrl().then((url) => signIn(url, user));
        cookies.set(user, cookie);
      }
      return cookie;
    },
  };
  return { ctx, stopAll };
}
