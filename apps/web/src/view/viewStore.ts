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
  /** Messages for the Server Communication Error banner: network failures and 5xx answers. */
  errors: string[];
  /**
   * Reasons the server gave for refusing an action (a 4xx other than 401: field errors, a 409's
   * reason), shown as plain sentences, never as a failure to communicate.
   */
  refusals: string[];
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
  /**
   * After the same user signed in again (a 401 overlay): the page loads again, unless it holds
   * unsaved edits of its own, which stay as typed for the user to save now.
   */
  reloadKeepingEdits(): Promise<void>;
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

/**
 * The reason of a refusal: a 4xx answer (other than 401, which asks to sign in again) that names
 * one. A network failure, a 5xx or an answer without a message is a failure to communicate.
 */
export function refusalOf(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.status < 400 || error.status >= 500 || error.status === 401)
    return undefined;
  const reason = error.serverMessage?.trim();
  return reason ? reason : undefined;
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
    refusals: [],
    signInRequired: false,
  });
  // Each load or commit takes a ticket; an answer whose ticket is no longer the newest is ignored.
  let sequence = 0;
  // The path whose view the edits were made on (a load of another path may have started since).
  let editedPath: string | undefined;

  function report(error: unknown): void {
    const message = errorMessageOf(error);
    const refusal = refusalOf(error);
    if (isUnauthorizedMessage(message)) store.set({ signInRequired: true });
    // The same failure twice is one banner line.
    else if (refusal !== undefined)
      store.set((s) => (s.refusals.includes(refusal) ? s : { refusals: [...s.refusals, refusal] }));
    else store.set((s) => (s.errors.includes(message) ? s : { errors: [...s.errors, message] }));
  }

  async function load(path: string): Promise<void> {
    const ticket = ++sequence;
    // A banner belongs to the page that failed: another page starts without it.
    const samePage = path.split('?')[0] === store.get().path.split('?')[0];
    store.set({ path, loading: true, ...(samePage ? {} : { errors: [], refusals: [] }) });
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
    store.set({ committing: true, loading: false, errors: [], refusals: [] });
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
    reloadKeepingEdits: async () => {
      const s = store.get();
      if (s.dirty && editedPath === s.path) return;
      await load(s.path);
    },
    commit,
    edit: (update) =>
      store.set((s) => {
        editedPath = s.path;
        return { view: update(s.view), dirty: true };
      }),
    revert: () => store.set((s) => ({ view: s.saved, dirty: false })),
    patch: (update) => store.set((s) => ({ view: update(s.view), saved: update(s.saved) })),
    report,
    dismissErrors: () => store.set({ errors: [], refusals: [] }),
    signedIn: () => store.set({ signInRequired: false, errors: [], refusals: [] }),
  };
}
