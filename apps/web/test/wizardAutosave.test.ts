import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api';
import { isPassingFailure, mayAutosave, retryDelayMs } from '../src/features/wizard/useWizardDraft';

// A draft's autosave that failed is tried again by itself when the failure may pass.

describe('wizard autosave retries', () => {
  it.each([
    ['a network error', new TypeError('Failed to fetch'), true],
    ['a server error', new ApiError(503, 'Service Unavailable', { message: 'Down' }), true],
    ['an expired session', new ApiError(401, 'Unauthorized', {}), true],
    ['too many requests', new ApiError(429, 'Too Many Requests', {}), true],
    ['a refused draft', new ApiError(400, 'Bad Request', { message: 'Invalid', fields: {} }), false],
    ['a draft that is gone', new ApiError(404, 'Not Found', {}), false],
    ['a conflict', new ApiError(409, 'Conflict', {}), false],
  ])('retries after %s: %s', (_case, error, retried) => expect(isPassingFailure(error)).toBe(retried));

  it('waits longer after each failure, at most 30 seconds', () => {
    expect([1, 2, 3, 4, 5, 6, 20].map(retryDelayMs)).toEqual([
      2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('wizard autosave of a new draft (issue 20)', () => {
  it('saves a new draft by itself only once something beyond the organisation is entered', () => {
    expect(mayAutosave({ isSaved: false, entered: false })).toBe(false);
    expect(mayAutosave({ isSaved: false, entered: true })).toBe(true);
    expect(mayAutosave({ isSaved: true, entered: false })).toBe(true);
  });
});
