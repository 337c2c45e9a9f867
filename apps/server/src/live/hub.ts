import type { LiveMessage } from '@dossier/core';
import { sql } from 'kysely';
import pg from 'pg';
import type { WebSocket } from 'ws';
import type { DbOrTrx } from '../db/database.js';

// Live updates. Each instance keeps the sockets of its own connections; a message is published with
// NOTIFY inside the transaction that caused it, so it is delivered only after the commit, to every
// instance listening on the same database, and each instance hands it to its own sockets.

const CHANNEL = 'dossier_live';
// NOTIFY payloads are limited to 8000 bytes; pushed objects are small summaries well below that.
const MAX_PAYLOAD = 7900;

/**
 * What a page can follow besides a request (whose viewers are known from presence): the dashboard,
 * or one inbox message. A topic change says only that something changed; the page fetches its own
 * view again, with its own access checks.
 */
export const TOPIC_PATTERN = /^(dashboard|inbox|inbox:[0-9a-f-]{36}|retention)$/;

type Envelope =
  | { kind: 'message'; userIds: string[]; message: LiveMessage }
  | { kind: 'topic'; topic: string }
  | { kind: 'endSession'; sessionId: string };

interface Connection {
  socket: WebSocket;
  userId: string;
  sessionId: string;
  /** The topic the connection's page follows, if any (held by this instance only). */
  topic?: string | undefined;
}

export interface Logger {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export class LiveHub {
  private readonly connections = new Set<Connection>();
  private listener: pg.Client | undefined;
  private closed = false;
  /** Other features' channels on the same listening connection (e.g. configuration changes). */
  private readonly subscriptions = new Map<string, Set<(payload: string | undefined) => void>>();

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
  ) {}

  /** Starts listening for messages published by any instance. */
  async start(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (n) => {
      if (n.channel === CHANNEL) this.deliver(n.payload);
      else for (const handler of this.subscriptions.get(n.channel) ?? []) handler(n.payload);
    });
    // Only the connection in use may trigger a reconnect; a failed attempt is retried by reconnectSoon.
    client.on('error', (error) => {
      if (client !== this.listener) return;
      this.log.warn({ err: error }, 'live listener connection lost');
      this.reconnectSoon();
    });
    client.on('end', () => {
      if (client === this.listener) this.reconnectSoon();
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      for (const channel of this.subscriptions.keys()) await client.query(`listen ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    const reconnected = this.everConnected;
    this.everConnected = true;
    this.listener = client;
    // Messages sent while the connection was down are lost: tell subscribers to start afresh.
    if (reconnected)
      for (const handlers of this.subscriptions.values()) for (const h of handlers) h(undefined);
  }
  private everConnected = false;

  /**
   * Calls `handler` with the payload of every NOTIFY on `channel` (a plain identifier), from any
   * instance, after the sending transaction commits; and with undefined after a reconnect.
   */
  async subscribe(channel: string, handler: (payload: string | undefined) => void): Promise<void> {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
    const handlers = this.subscriptions.get(channel) ?? new Set();
    const isNew = handlers.size === 0;
    handlers.add(handler);
    this.subscriptions.set(channel, handlers);
    if (isNew && this.listener) await this.listener.query(`listen ${channel}`);
  }

  /**
   * Reconnects after the listening connection is lost, retrying with a growing pause (1 s to 10 s)
   * for as long as the database stays away: one failed attempt must not end live updates.
   */
  private reconnectSoon(): void {
    if (this.closed || this.reconnecting) return;
    this.reconnecting = true;
    this.listener?.end().catch(() => undefined);
    this.listener = undefined;
    const attempt = (delay: number) =>
      setTimeout(async () => {
        if (this.closed) return;
        try {
          await this.start();
          this.reconnecting = false;
        } catch (error) {
          this.log.warn({ err: error }, 'live listener reconnect failed; trying again');
          attempt(Math.min(delay * 2, 10_000));
        }
      }, delay).unref();
    attempt(1000);
  }
  private reconnecting = false;

  add(socket: WebSocket, userId: string, sessionId: string): void {
    const connection: Connection = { socket, userId, sessionId };
    this.connections.add(connection);
    socket.on('close', () => this.connections.delete(connection));
  }

  /** Sets the topic a socket's page follows (null: none); an unknown topic follows nothing. */
  follow(socket: WebSocket, topic: string | null): void {
    for (const c of this.connections)
      if (c.socket === socket) c.topic = topic && TOPIC_PATTERN.test(topic) ? topic : undefined;
  }

  /** Whether this instance hears NOTIFY now (false until started, and while reconnecting). */
  get listening(): boolean {
    return this.listener !== undefined;
  }

  /** Sockets this instance holds. */
  get socketCount(): number {
    return this.connections.size;
  }

  isOnline(userId: string): boolean {
    for (const c of this.connections) if (c.userId === userId) return true;
    return false;
  }

  /** Publishes a message to users; pass the transaction that makes the change, if there is one. */
  async publish(db: DbOrTrx, userIds: string[], message: LiveMessage): Promise<void> {
    await publishLive(db, userIds, message);
  }

  /** Closes the sockets of a session that has ended, on whichever instance holds them. */
  async endSession(db: DbOrTrx, sessionId: string): Promise<void> {
    await notify(db, { kind: 'endSession', sessionId });
  }

  private deliver(payload: string | undefined): void {
    if (!payload) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(payload) as Envelope;
    } catch {
      return;
    }
    for (const c of this.connections) {
      if (envelope.kind === 'endSession' && c.sessionId === envelope.sessionId)
        c.socket.close(4001, 'signed out');
      if (envelope.kind === 'message' && envelope.userIds.includes(c.userId) && c.socket.readyState === 1) {
        c.socket.send(JSON.stringify(envelope.message));
      }
      if (envelope.kind === 'topic' && c.topic === envelope.topic && c.socket.readyState === 1)
        c.socket.send(JSON.stringify({ $type: 'topicChanged', topic: envelope.topic }));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.connections) c.socket.close(1001, 'server shutting down');
    await this.listener?.end().catch(() => undefined);
  }
}

/** Tells every page following the topic, on any instance, that it changed (after the commit). */
export async function publishTopic(db: DbOrTrx, topic: string): Promise<void> {
  if (!TOPIC_PATTERN.test(topic)) throw new Error(`invalid live topic ${topic}`);
  await notify(db, { kind: 'topic', topic });
}

/**
 * Publishes a message to users without a hub at hand: NOTIFY needs only the transaction, and every
 * instance's hub delivers it. For changes made deep in shared code (e.g. every request event).
 */
export async function publishLive(db: DbOrTrx, userIds: string[], message: LiveMessage): Promise<void> {
  if (userIds.length === 0) return;
  await notify(db, { kind: 'message', userIds: [...new Set(userIds)], message });
}

async function notify(db: DbOrTrx, envelope: Envelope): Promise<void> {
  const payload = JSON.stringify(envelope);
  if (Buffer.byteLength(payload) > MAX_PAYLOAD)
    throw new Error(`live message too large (${payload.length} bytes)`);
  await sql`select pg_notify(${CHANNEL}, ${payload})`.execute(db);
}
