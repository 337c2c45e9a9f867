import { describe, expect, it } from 'vitest';
import { isValidScopePath, isWithinScope, normalizeScopePath, scopeAncestry } from '../src/index.js';

describe('scope paths', () => {
  it.each([
    ['org/acme', '/org/acme/'],
    ['/org/acme', '/org/acme/'],
    ['org/acme/', '/org/acme/'],
    ['/', '/'],
  ])('adds missing slashes to %s', (input, output) => expect(normalizeScopePath(input)).toBe(output));

  it.each(['/', '/org/acme/', '/org/acme/branch/Sydney 1/'])('accepts %s', (p) =>
    expect(isValidScopePath(p)).toBe(true),
  );
  it.each(['/org/', '/Org/acme/', '/org/acme', 'org/acme/', '/1org/a/', '/org//'])('rejects %s', (p) =>
    expect(isValidScopePath(p)).toBe(false),
  );

  it('knows what lies within a scope', () => {
    expect(isWithinScope('/org/acme/branch/x/', '/org/acme/')).toBe(true);
    expect(isWithinScope('/org/acme/', '/')).toBe(true);
    expect(isWithinScope('/org/acmeco/', '/org/acme/')).toBe(false);
  });

  it('walks up to the root, nearest first', () => {
    expect(scopeAncestry('/org/acme/branch/x/')).toEqual([
      '/org/acme/branch/x/',
      '/org/acme/branch/',
      '/org/acme/',
      '/org/',
      '/',
    ]);
    expect(scopeAncestry('/')).toEqual(['/']);
  });
});
