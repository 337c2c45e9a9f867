import { getCountries } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { countries, countryName } from '../src/index.js';

describe('countries', () => {
  // The list is written out in countries.ts; an update of libphonenumber that knows another
  // country (or drops one) fails here until the list follows.
  it('are the codes libphonenumber knows, less AC and TA', () => {
    const known = getCountries().filter((code) => code !== 'AC' && code !== 'TA');
    expect(
      countries()
        .map((c) => c.code)
        .sort(),
    ).toEqual([...known].sort());
  });

  it('are sorted by their English names', () => {
    const names = countries().map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(countryName('au')).toBe('Australia');
  });
});
