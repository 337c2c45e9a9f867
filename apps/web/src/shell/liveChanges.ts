// "Something a page shows changed", over the live connection, reaches that page through here:
// - requestChanged (and the older requestResult, requestCorrespondence, requestTasks): the server
//   sends these to whoever has the request open (it knows from presence);
// - topicChanged: for other pages, which say what they follow ({ $type: 'following', topic }), e.g.
//   the dashboard or one inbox message; after a reconnect the server knows nothing, so the current
//   topic is sent again.
// The shell only forwards: the page alone knows whether it may take the new state in now (nothing
// is being edited) or must hold it back behind a notice.

import type { ClientLiveMessage } from '@dossier/core';

export interface RequestChange {
  requestNumber: string;
  /** Who changed it; null for the workflow, undefined when the message does not say. */
  by?: string | null | undefined;
  /** The request's version when the change was recorded (requestChanged only). */
  version?: number | undefined;
}

const requestListeners = new Set<(change: RequestChange) => void>();

export function deliverRequestChanged(change: RequestChange): void {
  for (const listener of requestListeners) listener(change);
}

/** Listens for changes of any request; answers a function that stops listening. */
export function onRequestChanged(listener: (change: RequestChange) => void): () => void {
  requestListeners.add(listener);
  return () => requestListeners.delete(listener);
}

type Send = (message: ClientLiveMessage) => void;
let send: Send | undefined;
let followed: string | null = null;
const topicListeners = new Set<(topic: string) => void>();

/** Called by the live connection: how to send, or undefined once it is gone. */
export function setFollowSender(sender: Send | undefined): void {
  send = sender;
}

const reconnectListeners = new Set<() => void>();

/**
 * Called by the live connection on every open; `again` after the first. Changes made while it was
 * closed were never told, so every page that follows something fetches afresh.
 */
export function followReconnected(again: boolean): void {
  if (followed) send?.({ $type: 'following', topic: followed });
  if (again) for (const listener of reconnectListeners) listener();
}

/** Listens for the live connection opening again after a close; answers a function that stops. */
export function onLiveReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

export function deliverTopicChanged(topic: string): void {
  for (const listener of topicListeners) listener(topic);
}

/**
 * Follows a topic while the page shows it: `changed` is called for each change. Answers a function
 * that stops following.
 */
export function followTopic(topic: string, changed: () => void): () => void {
  followed = topic;
  send?.({ $type: 'following', topic });
  const listener = (t: string) => {
    if (t === topic) changed();
  };
  topicListeners.add(listener);
  return () => {
    topicListeners.delete(listener);
    if (followed !== topic) return;
    followed = null;
    send?.({ $type: 'following', topic: null });
  };
}
