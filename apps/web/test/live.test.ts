import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveConnection, liveUrl, type SocketLike } from '../src/shell/live';
import { itemAt, silentLog } from './helpers';

class FakeSocket implements SocketLike {
  onopen: ((event: unknown) => void) | null = null;
  onclose: ((event: unknown) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  sent: string[] = [];
  closed = false;
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.closed = true;
  }
}

describe('live connection', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function connect() {
    const sockets: FakeSocket[] = [];
    const events: string[] = [];
    const connection = new LiveConnection({
      url: 'ws://host/__ws',
      createSocket: () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
      onOpen: () => events.push('open'),
      onClose: () => events.push('close'),
      onMessage: (data) => events.push(`message:${data}`),
      log: silentLog,
    });
    return { connection, sockets, events };
  }

  it('pings every 30 seconds while open', () => {
    const { connection, sockets, events } = connect();
    connection.start();
    itemAt(sockets, 0).onopen?.({});
    expect(events).toEqual(['open']);
    vi.advanceTimersByTime(29_999);
    expect(itemAt(sockets, 0).sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(itemAt(sockets, 0).sent).toEqual(['{"$type":"ping"}']);
    vi.advanceTimersByTime(30_000);
    expect(itemAt(sockets, 0).sent).toHaveLength(2);
    itemAt(sockets, 0).onmessage?.({ data: '{"$type":"pong"}' });
    expect(events).toContain('message:{"$type":"pong"}');
  });

  it('reconnects 10 seconds after a close and reports each close', () => {
    const { connection, sockets, events } = connect();
    connection.start();
    itemAt(sockets, 0).onopen?.({});
    itemAt(sockets, 0).onclose?.({});
    expect(events).toEqual(['open', 'close']);
    vi.advanceTimersByTime(9_999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(60_000);
    expect(itemAt(sockets, 0).sent).toEqual([]);
  });

  it('stop closes the socket and does not reconnect', () => {
    const { connection, sockets, events } = connect();
    connection.start();
    itemAt(sockets, 0).onopen?.({});
    connection.stop();
    expect(itemAt(sockets, 0).closed).toBe(true);
    expect(events).toEqual(['open', 'close']);
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('uses wss on https pages', () => {
    expect(liveUrl({ protocol: 'https:', host: 'a.example:8443' })).toBe('wss://a.example:8443/__ws');
    expect(liveUrl({ protocol: 'http:', host: 'localhost:5173' })).toBe('ws://localhost:5173/__ws');
  });
});
