import { describe, expect, it } from 'vitest';
import {
  decodeExternalReference,
  encodeExternalReference,
  formatRoleString,
  parseRoleString,
} from '../src/index.js';

describe('role strings', () => {
  it.each([
    [{ role: 'c:roles:admin', scope: '/' }, 'c:roles:admin@/'],
    [{ role: 'c:roles:handler', scope: '/org/acme/' }, 'c:roles:handler@/org/acme/'],
    [
      { role: 'c:roles:external', externalReference: 'ADV-1', scope: '/org/acme/' },
      'c:roles:external:ADV-1@/org/acme/',
    ],
    [{ role: 'c:roles:external', externalReference: 'a@b%c', scope: '/' }, 'c:roles:external:a%40b%25c@/'],
    [{ role: 'c:roles:external', externalReference: 'x:y', scope: '/' }, 'c:roles:external:x:y@/'],
  ])('formats and parses %o', (grant, text) => {
    expect(formatRoleString(grant)).toBe(text);
    expect(parseRoleString(text)).toEqual(grant);
  });

  it('encodes % before @ so both survive a round trip', () => {
    expect(encodeExternalReference('%40')).toBe('%2540');
    expect(decodeExternalReference('%2540')).toBe('%40');
  });

  it.each(['', '@/', 'c:roles:admin', 'c:roles:admin@'])('rejects %s', (text) => {
    expect(parseRoleString(text)).toBeUndefined();
  });
});
