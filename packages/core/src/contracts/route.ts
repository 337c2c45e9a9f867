import type { z } from 'zod';

// The contract of one call: method, path, the schemas of its params, query and body, and the
// schema of its answer. The server registers the route from it (apps/server/src/http/serve.ts:
// the schemas validate the input, and in tests every answer is checked against `answer`), and the
// web calls it through it (apps/web/src/api.ts#call), so neither side writes the shape again.

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteContract<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  A extends z.ZodType = z.ZodType,
> {
  method: RouteMethod;
  /** Fastify path syntax: `/requests/:requestNumber/preview`. */
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  answer: A;
}

/** Keeps the literal schemas of a contract so both sides infer from them. */
export function defineRoute<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  A extends z.ZodType = z.ZodType,
>(contract: {
  method: RouteMethod;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  answer: A;
}): RouteContract<P, Q, B, A> {
  return contract as RouteContract<P, Q, B, A>;
}

type In<S> = S extends z.ZodType ? z.input<S> : undefined;
type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

/** What a caller passes: the params, query and body as their schemas accept them. */
export type RouteInput<C> =
  C extends RouteContract<infer P, infer Q, infer B, z.ZodType>
    ? (P extends z.ZodType ? { params: In<P> } : { params?: undefined }) &
        (Q extends z.ZodType ? { query?: In<Q> } : { query?: undefined }) &
        (B extends z.ZodType ? { body: In<B> } : { body?: undefined })
    : never;

/** What a handler gets: the params, query and body after their schemas parsed them. */
export type RouteParsed<C> =
  C extends RouteContract<infer P, infer Q, infer B, z.ZodType>
    ? { params: Out<P>; query: Out<Q>; body: Out<B> }
    : never;

/** What the route answers. */
export type RouteAnswer<C> = C extends { answer: infer A extends z.ZodType } ? z.output<A> : never;

/**
 * The path of a call: each `:name` replaced by its param, encoded. A missing param throws, since
 * the call would reach another route.
 */
export function pathOfRoute(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null || value === '')
      throw new Error(`${path}: param ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** A query string (with its `?`, or empty) of the defined values; arrays repeat their key. */
export function queryStringOf(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  // Built by hand: core has neither DOM nor Node types, so no URLSearchParams.
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value])
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
  }
  const text = pairs.join('&');
  return text ? `?${text}` : '';
}
