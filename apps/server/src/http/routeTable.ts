import type { FastifyInstance, FastifySchema } from 'fastify';

// Every route the app serves, as registered: the authorization matrix and the fuzzing read this
// table, so a route added without being covered there fails their tests.

export interface RouteEntry {
  method: string;
  url: string;
  schema?: FastifySchema | undefined;
  /** The source file that registered the route, relative to `src/` (docs/ROUTES.md names its folder). */
  source?: string | undefined;
}

const SRC = `${new URL('..', import.meta.url).pathname}`;

/** The first file under src/ on the stack of a route's registration, past this one. */
function registeringFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const match of stack.matchAll(/(?:file:\/\/)?(\/[^\s():]+\.ts):\d+/g)) {
    const path = match[1]!;
    if (path.startsWith(SRC) && !/\/http\/(routeTable|serve)\.ts$/.test(path)) return path.slice(SRC.length);
  }
  return undefined;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export function installRouteTable(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const source = registeringFile();
    for (const method of methods) {
      if (method === 'HEAD') continue;
      table.push({ method, url: route.url, schema: route.schema, source });
    }
  });
}
