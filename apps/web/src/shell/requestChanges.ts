// "This request changed" over the live connection (requestChanged, and the older requestResult,
// requestCorrespondence and requestTasks) reaches the page that shows the request through here.
// The shell only forwards: the page alone knows whether it may take the new state in now (nothing
// is being edited) or must hold it back behind a notice.

export interface RequestChange {
  requestNumber: string;
  /** Who changed it; null for the workflow, undefined when the message does not say. */
  by?: string | null;
}

const listeners = new Set<(change: RequestChange) => void>();

export function deliverRequestChanged(change: RequestChange): void {
  for (const listener of listeners) listener(change);
}

/** Listens for changes of any request; answers a function that stops listening. */
export function onRequestChanged(listener: (change: RequestChange) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
