import type { ClientLiveMessage, RequestPresenceMessage } from '@dossier/core';

// The request page's presence over the shell's live connection: the page announces the request it
// shows ({ $type: 'viewing' }), the server answers every viewer with the list of viewers
// ({ $type: 'requestPresence' }). The live connection hands both ways through here; after a
// reconnect the server knows nothing, so the current announcement is sent again.

type Send = (message: ClientLiveMessage) => void;

let send: Send | undefined;
let viewing: string | null = null;
const listeners = new Set<(message: RequestPresenceMessage) => void>();

/** Called by the live connection: how to send, or undefined once it is gone. */
export function setPresenceSender(sender: Send | undefined): void {
  send = sender;
}

/** Called by the live connection on every open. */
export function presenceReconnected(): void {
  if (viewing) send?.({ $type: 'viewing', requestNumber: viewing });
}

/** Called by the live connection for every message; ignores those that are not presence. */
export function deliverPresence(message: unknown): void {
  if (!message || typeof message !== 'object') return;
  const m = message as Partial<RequestPresenceMessage>;
  if (m.$type !== 'requestPresence' || typeof m.requestNumber !== 'string' || !Array.isArray(m.viewers))
    return;
  for (const listener of listeners) listener(m as RequestPresenceMessage);
}

/** Announces the request shown (null when none) and answers a function that withdraws it. */
export function announceViewing(requestNumber: string): () => void {
  viewing = requestNumber;
  send?.({ $type: 'viewing', requestNumber });
  return () => {
    if (viewing !== requestNumber) return;
    viewing = null;
    send?.({ $type: 'viewing', requestNumber: null });
  };
}

export function onPresence(listener: (message: RequestPresenceMessage) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
