import { describe, expect, it } from 'vitest';
import { FORM_ERROR_KEY, fieldErrorsOf } from '../src/index.js';

describe('field errors of zod issues', () => {
  it('keys each message by its dotted path, the first per field; the form itself under one key', () => {
    const issues = [
      { path: ['contacts', 0, 'phone'], message: 'Enter a phone number.' },
      { path: ['contacts', 0, 'phone'], message: 'Too long.' },
      { path: [], message: 'Expected an object.' },
    ];
    expect(fieldErrorsOf(issues)).toEqual({
      'contacts.0.phone': 'Enter a phone number.',
      [FORM_ERROR_KEY]: 'Expected an object.',
    });
  });
  it('puts paths under a field or relative to one', () => {
    expect(fieldErrorsOf([{ path: ['due'], message: 'x' }], { prefix: 'data' })).toEqual({ 'data.due': 'x' });
    expect(fieldErrorsOf([{ path: ['data', 'name'], message: 'x' }], { within: 'data' })).toEqual({
      name: 'x',
    });
  });
});
