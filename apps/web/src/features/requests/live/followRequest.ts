import type { View } from '@dossier/core';

// The open request page follows changes made elsewhere (issue 22, item 1). Each "changed" message
// from the live connection asks for the page's view again; a burst of them (one action writes
// several events, the workflow answers it) costs one fetch, 300 ms after the first. The view then
// goes in at once, unless the user is editing (an action panel or a part edit is open, or the view
// is dirty): replacing it then would pull the page from under what they type, so it is held back
// and the page shows a notice until they ask for it or finish.

export const FOLLOW_DEBOUNCE_MS = 300;

export interface FollowOptions {
  /** Fetches the page's view afresh. */
  fetch(): Promise<View>;
  /** True while the user is editing something on the page. */
  isEditing(): boolean;
  /** Puts the fetched view in place. */
  apply(view: View): void;
  /** Keeps the fetched view back while the user edits (the page shows the notice). */
  hold(view: View): void;
  report?(error: unknown): void;
  debounceMs?: number;
}

export interface Follower {
  /** The request changed: fetch it again soon. */
  changed(): void;
  stop(): void;
}

export function followRequest(options: FollowOptions): Follower {
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
      const view = await options.fetch();
      if (stopped) return;
      if (options.isEditing()) options.hold(view);
      else options.apply(view);
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

/** The version of a request view, or undefined for another view. */
export function requestVersion(view: View): number | undefined {
  const request = (view as { request?: { version?: unknown } }).request;
  return typeof request?.version === 'number' ? request.version : undefined;
}

/**
 * Whether a fetched view may replace the shown one: the same request, and not older than what is
 * shown (the page's own save may have answered a newer version while the fetch was under way).
 */
export function isNewerOrSame(fetched: View, shown: View, requestNumber: string): boolean {
  const numberOf = (v: View) => (v as { request?: { requestNumber?: unknown } }).request?.requestNumber;
  if (fetched.$type !== shown.$type || numberOf(fetched) !== requestNumber) return false;
  if (numberOf(shown) !== requestNumber) return false;
  const a = requestVersion(fetched);
  const b = requestVersion(shown);
  return a === undefined || b === undefined || a >= b;
}
