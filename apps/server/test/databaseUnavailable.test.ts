import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/unavailable.js';

// What answers 503 "try again" rather than 500: the database unreachable, or a transaction it
// rolled back whole because of a deadlock or a serialization failure.

const pgError = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('takes outages, cut connections, deadlocks and serialization failures as transient', () => {
    for (const code of ['57P01', '08006', 'ECONNREFUSED', '40P01', '40001'])
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('leaves real faults and bad input alone', () => {
    for (const code of ['23505', '22P02', '42703', '23503'])
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(false);
    expect(isDatabaseUnavailable('40P01')).toBe(false);
  });
});
