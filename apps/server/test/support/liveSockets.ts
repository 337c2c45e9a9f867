import WebSocket from 'ws';

// Live sockets for the tests of the live connection: a socket signed in by its cookie, the messages
// it received, and waiting for what should arrive.

export interface LiveMessage {
  $type: string;
  requestNumber?: string;
  by?: string | null;
  topic?: string;
  viewers?: { userId: string; name: string }[];
}

export interface LiveSocket {
  ws: WebSocket;
  messages: LiveMessage[];
  /** The close code, once the server or the test closed it. */
  closed: Promise<number>;
}

/** Opens the live connection at `host` (host:port) as the cookie's session, from the site's origin. */
export function connectLive(host: string, headers: Record<string, string>): Promise<LiveSocket> {
  const ws = new WebSocket(`ws://${host}/__ws`, { headers });
  const socket: LiveSocket = {
    ws,
    messages: [],
    closed: new Promise<number>((resolve) => ws.on('close', (code) => resolve(code))),
  };
  ws.on('message', (data) => socket.messages.push(JSON.parse(String(data))));
  return new Promise((resolve, reject) => {
    ws.on('open', () => resolve(socket));
    ws.on('error', reject);
  });
}

/** A signed-in page's socket: its session cookie, from the site's own origin. */
export const connectAs = (host: string, cookie: string | undefined) =>
  connectLive(host, { cookie: cookie ?? '', origin: `http://${host}` });

/** Polls `fn` until it answers something, or fails after `ms`. */
export async function waitFor<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = fn();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('timed out');
}

/** Waits until the socket has answered a ping: every message sent before it has been handled. */
export async function settled(s: LiveSocket): Promise<void> {
  const pongs = s.messages.filter((m) => m.$type === 'pong').length;
  s.ws.send(JSON.stringify({ $type: 'ping' }));
  await waitFor(() => (s.messages.filter((m) => m.$type === 'pong').length > pongs ? true : undefined));
}

/** The newest viewer list a socket received for a request, as user ids. */
export const lastViewers = (s: LiveSocket, requestNumber: string) =>
  s.messages
    .filter((m) => m.$type === 'requestPresence' && m.requestNumber === requestNumber)
    .at(-1)
    ?.viewers?.map((v) => v.userId)
    .sort();
