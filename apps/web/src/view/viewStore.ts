import { isUnauthorizedMessage, type View } from '@dossier/core';
import { ApiError } from '../api';
import { createStore, type Store } from './createStore';

/** The page view state of the specification. */
export interface ViewState {
  /** The path (with query) of the latest load. */
  path: string;
  /** The view as shown, possibly edited. */
  view: View;
  /** The last copy the server answered; `revert` goes back to it. */
  saved: View;
  dirty: boolean;
  loading: boolean;
  committing: boolean;
  /** Messages for the Server Communication Error banner. */
  errors: string[];
  /** A 401 was met: the sign-in overlay is open. */
  signInRequired: boolean;
}

export interface ViewTransport {
  get(path: string): Promise<View>;
  post(path: string, body: unknown): Promise<View>;
}

export interface CommitOptions {
  /** Merge the answer into the view instead of replacing it. */
  merge?: boolean;
  /** Leave a failure to the caller, which shows it by its controls, instead of the view's banner. */
  quiet?: boolean;
}

export type CommitResult = { ok: true; view: View } | { ok: false; error: unknown };

export interface ViewStore extends Store<ViewState> {
  load(path: string): Promise<void>;
  reload(): Promise<void>;
  commit(path: string, body: unknown, options?: CommitOptions): Promise<CommitResult>;
  /** Edits the shown view and marks it dirty. */
  edit(update: (view: View) => View): void;
  revert(): void;
  /** Changes both the shown and the saved copy (live pushes), without marking dirty. */
  patch(update: (view: View) => View): void;
  report(error: unknown): void;
  dismissErrors(): void;
  signedIn(): void;
}

export function invalidUrlView(path: string): View {
  return { $type: 'invalidUrl', path };
}

export function errorMessageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

export function createViewStore(initial: { path: string; view: View }, transport: ViewTransport): ViewStore {
  const store = createStore<ViewState>({
    path: initial.path,
    view: initial.view,
    saved: initial.view,
    dirty: false,
    loading: false,
    committing: false,
    errors: [],
    signInRequired: false,
  });
  // Each load or commit takes a ticket; an answer whose ticket is no longer the newest is ignored.
  let sequence = 0;

  function report(error: unknown): void {
    const message = errorMessageOf(error);
    if (isUnauthorizedMessage(message)) store.set({ signInRequired: true });
    // The same failure twice is one banner line.
    else store.set((s) => (s.errors.includes(message) ? s : { errors: [...s.errors, message] }));
  }

  async function load(path: string): Promise<void> {
    const ticket = ++sequence;
    // A banner belongs to the page that failed: another page starts without it.
    const samePage = path.split('?')[0] === store.get().path.split('?')[0];
    store.set({ path, loading: true, ...(samePage ? {} : { errors: [] }) });
    try {
      const view = await transport.get(path);
      if (ticket !== sequence) return;
      store.set({ view, saved: view, dirty: false, loading: false });
    } catch (error) {
      if (ticket !== sequence) return;
      store.set({ loading: false });
      if (error instanceof ApiError && error.code === 'invalidUrl') {
        const view = invalidUrlView(path.split('?')[0] ?? path);
        store.set({ view, saved: view, dirty: false });
      } else report(error);
    }
  }

  async function commit(path: string, body: unknown, options: CommitOptions = {}): Promise<CommitResult> {
    const ticket = ++sequence;
    // A commit supersedes any load still under way, and the banner of the attempt before it.
    store.set({ committing: true, loading: false, errors: [] });
    try {
      const answer = await transport.post(path, body);
      if (ticket === sequence) {
        const view = options.merge ? { ...store.get().saved, ...answer } : answer;
        store.set({ view, saved: view, dirty: false, committing: false });
      } else store.set({ committing: false });
      return { ok: true, view: answer };
    } catch (error) {
      store.set({ committing: false });
      if (!options.quiet) report(error);
      return { ok: false, error };
    }
  }

  return {
    ...store,
    load,
    reload: () => load(store.get().path),
    commit,
    edit: (update) => store.set((s) => ({ view: update(s.view), dirty: true })),
    revert: () => store.set((s) => ({ view: s.saved, dirty: false })),
    patch: (update) => store.set((s) => ({ view: update(s.view), saved: update(s.saved) })),
    report,
    dismissErrors: () => store.set({ errors: [] }),
    signedIn: () => store.set({ signInRequired: false, errors: [] }),
  };
}
