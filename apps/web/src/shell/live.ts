// The live connection: open only while a user is signed in, ping every 30 s,
// reconnect 10 s after a close. Parse failures and connection errors are only logged.

import type { ClientLiveMessage } from '@dossier/core';

export const LIVE_PING_MS = 30_000;
export const LIVE_RECONNECT_MS = 10_000;

export interface SocketLike {
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  send(data: string): void;
  close(): void;
}

export interface LiveOptions {
  url: string;
  onOpen(): void;
  onClose(): void;
  onMessage(data: unknown): void;
  createSocket?: (url: string) => SocketLike;
  log?: Pick<Console, 'error'>;
  pingMs?: number;
  reconnectMs?: number;
}

export function liveUrl(location: Pick<Location, 'protocol' | 'host'>): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/__ws`;
}

export class LiveConnection {
  private socket: SocketLike | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;

  constructor(private readonly options: LiveOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    clearInterval(this.pingTimer);
    const socket = this.socket;
    this.socket = undefined;
    if (socket) {
      socket.onclose = null;
      socket.close();
      this.options.onClose();
    }
  }

  private connect(): void {
    // The DOM's WebSocket types its handlers with `this: WebSocket` and DOM events, which SocketLike
    // (what the tests' fake sockets implement too) leaves out; it is a SocketLike all the same.
    const { createSocket = (url) => new WebSocket(url) as unknown as SocketLike, log = console } =
      this.options;
    let socket: SocketLike;
    try {
      socket = createSocket(this.options.url);
    } catch (error) {
      log.error('Live connection failed', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ $type: 'ping' }), this.options.pingMs ?? LIVE_PING_MS);
      this.options.onOpen();
    };
    socket.onmessage = (event) => this.options.onMessage(event.data);
    socket.onerror = (event) => log.error('Live connection error', event);
    socket.onclose = () => {
      clearInterval(this.pingTimer);
      if (this.socket === socket) this.socket = undefined;
      this.options.onClose();
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => {
      if (!this.stopped) this.connect();
    }, this.options.reconnectMs ?? LIVE_RECONNECT_MS);
  }

  send(message: ClientLiveMessage): void {
    try {
      this.socket?.send(JSON.stringify(message));
    } catch (error) {
      (this.options.log ?? console).error('Live connection send failed', error);
    }
  }
}
