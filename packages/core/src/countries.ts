import { getCountries } from 'libphonenumber-js';

// Countries are stored as ISO 3166-1 alpha-2 codes and chosen from a list that shows their names.
// The codes are those libphonenumber knows (it formats their phone numbers), less the two that are
// not countries of their own (Ascension Island and Tristan da Cunha share Saint Helena's ISO code).
// Names come from the runtime's Intl data, so the browser and the server read them alike.

export interface Country {
  code: string;
  name: string;
}

const NOT_ISO = new Set(['AC', 'TA']);

function englishName(code: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

let cached: readonly Country[] | undefined;

/** Every country, sorted by name. */
export function countries(): readonly Country[] {
  cached ??= getCountries()
    .filter((code) => !NOT_ISO.has(code))
    .map((code) => ({ code, name: englishName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en'));
  return cached;
}

export const COUNTRY_INVALID = 'Choose a country from the list.';

/** The name shown for a stored code; the code itself when it is none we know. */
export function countryName(code: string | null | undefined): string {
  if (!code) return '';
  return countries().find((c) => c.code === code.toUpperCase())?.name ?? code;
}

/**
 * A country as typed or chosen: its ISO code in any case ("au") or its English name ("Australia")
 * gives the code; empty gives null; anything else is refused with the message for the field.
 */
export function normalizeCountry(
  input: string | null | undefined,
): { ok: true; value: string | null } | { ok: false; message: string } {
  const text = (input ?? '').trim();
  if (text.length === 0) return { ok: true, value: null };
  const lower = text.toLowerCase();
  const found = countries().find((c) => c.code.toLowerCase() === lower || c.name.toLowerCase() === lower);
  return found ? { ok: true, value: found.code } : { ok: false, message: COUNTRY_INVALID };
}
