import { describe, expect, it } from 'vitest';
import { AccessLog, type AccessRow } from '../src/audit/accessLog.js';
import type { Db } from '../src/db/database.js';

// The access log's queue (audit/accessLog.ts) without a database: entries go out as one insert, a
// failed write keeps them for the next flush and says so, and a switched-off log queues nothing.
// The insert itself is tested on a database in accessLog.test.ts.

const db = {} as Db;

function stubInsert(fail: () => boolean) {
  const written: AccessRow[][] = [];
  const insert = async (_db: Db, rows: AccessRow[]) => {
    if (fail()) throw new Error('database away');
    written.push(rows);
  };
  return { insert, written };
}

const entry = {
  reader: { userId: 'u1' },
  what: 'request' as const,
  via: 'page' as const,
  requestNumber: 'N1',
};

describe('the access log queue', () => {
  it('writes queued entries as one insert', async () => {
    const { insert, written } = stubInsert(() => false);
    const log = new AccessLog(db, true, console, insert);
    log.record(entry);
    log.record({ ...entry, reader: { apiClient: 'api:c:k' }, via: 'api', address: 'not an address' });
    await log.close();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject([
      { user_id: 'u1', api_client: null, request_number: 'N1' },
      { user_id: null, api_client: 'api:c:k', via: 'api', address: null },
    ]);
  });

  it('keeps the entries of a failed write for the next flush, and logs it', async () => {
    let down = true;
    const { insert, written } = stubInsert(() => down);
    const errors: string[] = [];
    const log = new AccessLog(db, true, { error: (_o, message) => errors.push(message) }, insert);
    log.record(entry);
    await log.flush();
    expect(written).toHaveLength(0);
    expect(errors).toEqual(['access log: entries not written yet']);
    down = false;
    await log.close();
    expect(written.flat()).toHaveLength(1);
  });

  it('queues nothing while switched off', async () => {
    const { insert, written } = stubInsert(() => false);
    const log = new AccessLog(db, false, console, insert);
    log.record(entry);
    await log.close();
    expect(written).toHaveLength(0);
  });
});
