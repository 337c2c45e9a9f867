import type { View } from '@dossier/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { onLiveReconnected } from '../shell/liveChanges';
import { useServices } from '../shell/ServicesContext';
import type { ViewState, ViewStore } from './viewStore';

// An open page follows changes made elsewhere (issue 22, item 1): each "changed" message from the
// live connection asks for the page's view again; a burst of them (one action writes several
// events, the workflow answers it) costs one fetch, 300 ms after the first. The view then goes in
// at once, unless the user is editing (an action panel or an edit is open, or the view is dirty):
// replacing it then would pull the page from under what they type, so it is held back and the page
// shows a notice until they ask for it or finish.
// A change may say how to tell that the shown copy already holds it (a request's version: the page's
// own action answered the view after the change): when every change of a burst is held, nothing is
// fetched, so an action costs the page one round trip. While the page's own commit is under way the
// check waits for its answer.

export const FOLLOW_DEBOUNCE_MS = 300;

export interface FollowOptions<T = View> {
  /** Fetches the page's data afresh. */
  fetch(): Promise<T>;
  /** True while the user is editing something on the page. */
  isEditing(): boolean;
  /** Whether the shown data already holds every change announced since the last fetch. */
  isCurrent?(): boolean;
  /** True while the page's own commit is under way: its answer may make the fetch needless. */
  isCommitting?(): boolean;
  /** Puts the fetched data in place. */
  apply(data: T): void;
  /** Keeps the fetched data back while the user edits (the page shows the notice). */
  hold(data: T): void;
  report?: ((error: unknown) => void) | undefined;
  /** Undefined: FOLLOW_DEBOUNCE_MS (createViewFollower passes its own option on). */
  debounceMs?: number | undefined;
}

export interface Follower {
  /** Something changed: fetch again soon. */
  changed(): void;
  stop(): void;
}

export function followChanges<T = View>(options: FollowOptions<T>): Follower {
  const debounceMs = options.debounceMs ?? FOLLOW_DEBOUNCE_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fetching = false;
  // A change announced while a fetch is under way may not be in its answer: fetch once more after.
  let again = false;
  let stopped = false;

  async function run(): Promise<void> {
    timer = undefined;
    if (options.isCommitting?.()) return schedule();
    if (options.isCurrent?.()) return;
    fetching = true;
    again = false;
    try {
      const data = await options.fetch();
      if (stopped) return;
      if (options.isEditing()) options.hold(data);
      else options.apply(data);
    } catch (error) {
      if (!stopped) options.report?.(error);
    } finally {
      fetching = false;
      if (again && !stopped) schedule();
    }
  }

  function schedule(): void {
    if (timer !== undefined) return;
    timer = setTimeout(() => void run(), debounceMs);
  }

  return {
    changed() {
      if (stopped) return;
      if (fetching) again = true;
      else schedule();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

export interface ViewFollowerOptions {
  store: Pick<ViewStore, 'get' | 'patch'>;
  fetch(path: string): Promise<View>;
  /** The path to fetch the view from. */
  path(shown: ViewState): string;
  /** Whether the fetched view may replace the one shown now (same page, not older). */
  accepts(fresh: View, shown: ViewState): boolean;
  /** Called when a newer view starts or stops being held back (the page shows the notice). */
  onHeld(held: boolean): void;
  /** An action panel or an edit is open at the start. */
  editing?: boolean | undefined;
  report?: ((error: unknown) => void) | undefined;
  debounceMs?: number;
}

export interface ViewFollower {
  /**
   * What the page shows changed elsewhere; `holds` tells whether a shown view already has the
   * change (without it, the view is fetched).
   */
  changed(holds?: (shown: ViewState) => boolean): void;
  /** An action panel or an edit opened or closed; closing lets a held-back view in. */
  setEditing(editing: boolean): void;
  /** The user asks for the held-back view: it goes in around their edit (which is local state). */
  showChanges(): void;
  stop(): void;
}

/** Follows the view of the page shown in the view store (editing: see followChanges). */
export function createViewFollower(options: ViewFollowerOptions): ViewFollower {
  const { store } = options;
  let editing = options.editing ?? false;
  let held: View | null = null;
  const setHeld = (view: View | null) => {
    const was = held !== null;
    held = view;
    if (was !== (view !== null)) options.onHeld(view !== null);
  };
  // The user may have gone elsewhere, or saved a newer state, while the fetch was under way.
  const apply = (fresh: View) => {
    setHeld(null);
    if (options.accepts(fresh, store.get())) store.patch(() => fresh);
  };
  // The checks of the changes announced since the last fetch; null: one of them cannot tell.
  let checks: ((shown: ViewState) => boolean)[] | null = [];
  const follower = followChanges({
    fetch: () => {
      checks = [];
      return options.fetch(options.path(store.get()));
    },
    isCurrent: () => {
      const shown = store.get();
      const current = checks?.every((holds) => holds(shown)) === true;
      if (current) checks = [];
      return current;
    },
    isCommitting: () => store.get().committing,
    isEditing: () => editing || store.get().dirty,
    apply,
    hold: setHeld,
    report: options.report,
    debounceMs: options.debounceMs,
  });
  return {
    changed(holds) {
      if (!holds) checks = null;
      else checks?.push(holds);
      follower.changed();
    },
    setEditing(next) {
      editing = next;
      if (!editing && held && !store.get().dirty) apply(held);
    },
    showChanges() {
      if (held) apply(held);
    },
    stop: () => follower.stop(),
  };
}

export interface FollowViewOptions {
  /** Listens for changes of what the page shows; answers a function that stops listening. */
  subscribe(changed: (holds?: (shown: ViewState) => boolean) => void): () => void;
  path(shown: ViewState): string;
  accepts(fresh: View, shown: ViewState): boolean;
  /** An action panel or an edit is open. */
  editing: boolean;
  /** Changes when the page shows another thing: following starts afresh. */
  key: string;
}

/**
 * Keeps the shown view up to date with changes made elsewhere (and after a reconnect, when changes
 * may have been missed). Answers whether a newer state is held back (the page shows the notice)
 * and the function that shows it.
 */
export function useFollowView(options: FollowViewOptions) {
  const { api, view: store } = useServices();
  const [changedElsewhere, setChangedElsewhere] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const follower = useRef<ViewFollower | undefined>(undefined);

  // biome-ignore lint/correctness/useExhaustiveDependencies: key is what starts following afresh
  useEffect(() => {
    setChangedElsewhere(false);
    const f = createViewFollower({
      store,
      fetch: (path) => api.get<View>(path),
      path: (shown) => latest.current.path(shown),
      accepts: (fresh, shown) => latest.current.accepts(fresh, shown),
      onHeld: setChangedElsewhere,
      editing: latest.current.editing,
      // A missed update is made good by the next one or a reload; no banner for it.
      report: (error) => console.error('Following the page failed', error),
    });
    follower.current = f;
    const stop = latest.current.subscribe(f.changed);
    const stopReconnected = onLiveReconnected(() => f.changed());
    return () => {
      stop();
      stopReconnected();
      f.stop();
      follower.current = undefined;
    };
  }, [api, store, options.key]);

  useEffect(() => follower.current?.setEditing(options.editing), [options.editing]);

  const showChanges = useCallback(() => follower.current?.showChanges(), []);
  return { changedElsewhere, showChanges };
}
