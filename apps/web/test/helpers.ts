import type { FetchLike } from '../src/api';

export interface Call {
  path: string;
  init: RequestInit | undefined;
}

/** A fetch stand-in answering from a routing function; records every call. */
export function fakeFetch(answer: (path: string, init?: RequestInit) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch: FetchLike = async (path, init) => {
    calls.push({ path, init });
    return answer(path, init);
  };
  return { fetch, calls };
}

export function json(body: unknown, status = 200, statusText = ''): Response {
  return new Response(JSON.stringify(body), {
    status,
    statusText,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** A promise with its resolve function exposed, to answer calls out of order. */
export function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export const silentLog = { error: () => {} };

/** The list's item at `index`, which the test expects to be there (fails the test otherwise). */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) throw new Error(`expected an item at ${index}, the list has ${list.length}`);
  return item;
}
