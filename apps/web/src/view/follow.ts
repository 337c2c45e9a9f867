import type { View } from '@dossier/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { onLiveReconnected } from '../shell/liveChanges';
import { useServices } from '../shell/ServicesContext';
import type { ViewState } from './viewStore';

// An open page follows changes made elsewhere (issue 22, item 1): each "changed" message from the
// live connection asks for the page's view again; a burst of them (one action writes several
// events, the workflow answers it) costs one fetch, 300 ms after the first. The view then goes in
// at once, unless the user is editing (an action panel or an edit is open, or the view is dirty):
// replacing it then would pull the page from under what they type, so it is held back and the page
// shows a notice until they ask for it or finish.

export const FOLLOW_DEBOUNCE_MS = 300;

export interface FollowOptions<T = View> {
  /** Fetches the page's data afresh. */
  fetch(): Promise<T>;
  /** True while the user is editing something on the page. */
  isEditing(): boolean;
  /** Puts the fetched data in place. */
  apply(data: T): void;
  /** Keeps the fetched data back while the user edits (the page shows the notice). */
  hold(data: T): void;
  report?(error: unknown): void;
  debounceMs?: number;
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

export interface FollowViewOptions {
  /** Listens for changes of what the page shows; answers a function that stops listening. */
  subscribe(changed: () => void): () => void;
  /** The path to fetch the view from. */
  path(shown: ViewState): string;
  /** Whether the fetched view may replace the one shown now (same page, not older). */
  accepts(fresh: View, shown: ViewState): boolean;
  /** An action panel or an edit is open. */
  editing: boolean;
  /** Changes when the page shows another thing: following starts afresh. */
  key: string;
}

/**
 * Keeps the shown view up to date with changes made elsewhere. Answers whether a newer state is
 * held back (the page shows the notice) and the function that shows it.
 */
export function useFollowView(options: FollowViewOptions) {
  const { api, view: store } = useServices();
  const [held, setHeld] = useState<View | null>(null);
  const latest = useRef(options);
  latest.current = options;

  const apply = useCallback(
    (fresh: View) => {
      // The user may have gone elsewhere, or saved a newer state, while the fetch was under way.
      if (latest.current.accepts(fresh, store.get())) store.patch(() => fresh);
    },
    [store],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: key is what starts following afresh
  useEffect(() => {
    setHeld(null);
    const follower = followChanges({
      fetch: () => api.get<View>(latest.current.path(store.get())),
      isEditing: () => latest.current.editing || store.get().dirty,
      apply,
      hold: setHeld,
      // A missed update is made good by the next one or a reload; no banner for it.
      report: (error) => console.error('Following the page failed', error),
    });
    const stop = latest.current.subscribe(() => follower.changed());
    const stopReconnected = onLiveReconnected(() => follower.changed());
    return () => {
      stop();
      stopReconnected();
      follower.stop();
    };
  }, [api, store, apply, options.key]);

  // Once the user stops editing (saved or cancelled), what was held back goes in.
  useEffect(() => {
    if (options.editing || !held) return;
    apply(held);
    setHeld(null);
  }, [options.editing, held, apply]);

  const showChanges = useCallback(() => {
    if (held) apply(held);
    setHeld(null);
  }, [held, apply]);

  return { changedElsewhere: held !== null, showChanges };
}
