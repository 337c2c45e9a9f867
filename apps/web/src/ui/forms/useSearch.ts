import { queryStringOf, type RouteAnswer, type RouteContract } from '@dossier/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';

// The behaviour every search page shares (search form): a search sets the searching state,
// clears the earlier result, asks the server, and shows the answer with paging, or puts a refused
// term at its field and any other error in the banner. Bound to the address, the terms are written
// to it and its trigger flag (search=1) runs the search again when the page is opened from there
// (a link, the back button).

export interface SearchOptions<T extends Record<string, string>> {
  pageSize: number;
  /** The terms when the page opens (from the address, when bound to it). */
  initialTerms: T;
  bindAddress?: boolean;
  /** Lists the first page on opening, not only when the address asks for it. */
  searchOnOpen?: boolean | undefined;
}

/**
 * The search call: its route contract (a GET whose query takes the terms, pageOffset and pageSize),
 * whose answer the result is; or, for a search whose route has no contract yet, its path.
 */
type SearchCall = { route: RouteContract; path?: undefined } | { path: string; route?: undefined };

export function useSearch<C extends RouteContract, T extends Record<string, string>>(
  options: SearchOptions<T> & { route: C },
): SearchState<RouteAnswer<C>, T>;
export function useSearch<A, T extends Record<string, string>>(
  options: SearchOptions<T> & { path: string },
): SearchState<A, T>;
export function useSearch<A, T extends Record<string, string>>(
  options: SearchOptions<T> & SearchCall,
): SearchState<A, T> {
  const { api, view } = useServices();
  const [result, setResult] = useState<A>();
  const [searching, setSearching] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const started = useRef(false);
  // The query of the shown result, which refresh() asks again.
  const shown = useRef<Record<string, string> | null>(null);

  const fetch = async (query: Record<string, string>) =>
    options.route
      ? ((await api.call(options.route, { query } as never)) as A)
      : await api.get<A>(`${options.path}${queryStringOf(query)}`);

  async function run(offset: number, terms: T) {
    setSearching(true);
    setResult(undefined);
    setErrors({});
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(terms)) if (v.trim()) query[k] = v.trim();
    if (offset > 0) query.pageOffset = String(offset);
    if (options.bindAddress) writeAddress(new URLSearchParams(query));
    query.pageSize = String(options.pageSize);
    shown.current = null;
    try {
      setResult(await fetch(query));
      shown.current = query;
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      else view.report(error);
    } finally {
      setSearching(false);
    }
  }

  /** The shown result again, in place (no empty list meanwhile): a live page's data changed. */
  async function refresh() {
    const query = shown.current;
    if (!query) return;
    try {
      const fresh = await fetch(query);
      if (shown.current === query) setResult(fresh);
    } catch (error) {
      console.error('Refreshing the search failed', error);
    }
  }

  /** Back to an empty form: no result, no errors, nothing in the address. */
  function clear() {
    shown.current = null;
    setResult(undefined);
    setErrors({});
    if (options.bindAddress) window.history.replaceState(window.history.state, '', window.location.pathname);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, on opening the page
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const address = new URLSearchParams(window.location.search);
    const triggered = options.bindAddress && address.get('search') === '1';
    if (triggered || options.searchOnOpen)
      void run(triggered ? Number(address.get('pageOffset')) || 0 : 0, options.initialTerms);
  }, []);

  return { result, searching, errors, run, refresh, clear };
}

export interface SearchState<A, T> {
  result: A | undefined;
  searching: boolean;
  /** A refused term's message, by its field. */
  errors: Record<string, string>;
  run(offset: number, terms: T): Promise<void>;
  /** Asks the shown result's query again and puts the answer in place. */
  refresh(): Promise<void>;
  /** Back to an empty form: no result, no errors, nothing in the address. */
  clear(): void;
}

/** The terms of `names` found in the address (a search opened from a link). */
export function termsFromAddress<N extends string>(names: readonly N[]): Record<N, string> {
  const address = new URLSearchParams(window.location.search);
  return Object.fromEntries(names.map((n) => [n, address.get(n) ?? ''])) as Record<N, string>;
}

function writeAddress(query: URLSearchParams): void {
  const address = new URLSearchParams(query);
  address.set('search', '1');
  window.history.replaceState(window.history.state, '', `${window.location.pathname}?${address}`);
}
