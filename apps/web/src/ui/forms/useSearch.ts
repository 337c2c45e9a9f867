import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api';
import { useServices } from '../../shell/ServicesContext';

// The behaviour every search page shares (search form): a search sets the searching state,
// clears the earlier result, asks the server, and shows the answer with paging, or puts a refused
// term at its field and any other error in the banner. Bound to the address, the terms are written
// to it and its trigger flag (search=1) runs the search again when the page is opened from there
// (a link, the back button).

export interface SearchOptions<T extends Record<string, string>> {
  /** The search call, such as /requests/search. */
  path: string;
  pageSize: number;
  /** The terms when the page opens (from the address, when bound to it). */
  initialTerms: T;
  bindAddress?: boolean;
  /** Lists the first page on opening, not only when the address asks for it. */
  searchOnOpen?: boolean;
}

export function useSearch<A, T extends Record<string, string>>(options: SearchOptions<T>) {
  const { api, view } = useServices();
  const [result, setResult] = useState<A>();
  const [searching, setSearching] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const started = useRef(false);

  async function run(offset: number, terms: T) {
    setSearching(true);
    setResult(undefined);
    setErrors({});
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(terms)) if (v.trim()) query.set(k, v.trim());
    if (offset > 0) query.set('pageOffset', String(offset));
    if (options.bindAddress) writeAddress(query);
    query.set('pageSize', String(options.pageSize));
    try {
      setResult(await api.get<A>(`${options.path}?${query}`));
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.fields) setErrors(error.fields);
      else view.report(error);
    } finally {
      setSearching(false);
    }
  }

  /** Back to an empty form: no result, no errors, nothing in the address. */
  function clear() {
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

  return { result, searching, errors, run, clear };
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
