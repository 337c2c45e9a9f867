import { type CountryCode, getCountryCallingCode, parsePhoneNumberFromString } from 'libphonenumber-js';
import type { Validation } from './validators.js';

// The phone number rules, apart from the other input rules (validators.ts) because they carry
// libphonenumber and its metadata: only the forms and routes that check or show a phone number
// import this module, so the web app's first load goes without them (its budget, issue 15).

const ok = (value: string): Validation => ({ ok: true, value });
const fail = (message: string): Validation => ({ ok: false, message });

// Local formats known per country, written without the trunk 0; each becomes country code + digits.
// The Australian formats: 13 ####, 1300 ### ###, 18 ####, 1800 ### ###, 4## ### ###, # #### ####.
const LOCAL_FORMATS: Record<string, RegExp[]> = {
  '+61': [/^13\d{4}$/, /^1300\d{6}$/, /^18\d{4}$/, /^1800\d{6}$/, /^4\d{8}$/, /^\d{9}$/],
};

// Australia's 13, 1300, 18 and 1800 numbers are dialled only within Australia: +61 1300 … reaches
// nobody, so they are kept as the digits one dials.
const AU_NATIONAL_ONLY = /^(13\d{4}|1300\d{6}|18\d{4}|1800\d{6})$/;

/** The calling code (+61) of a country code (AU) or a calling code itself; +61 otherwise. */
export function callingCodeOf(country: string | null | undefined): string {
  if (country && /^\+\d{1,4}$/.test(country)) return country;
  if (country && /^[A-Za-z]{2}$/.test(country)) {
    try {
      return `+${getCountryCallingCode(country.toUpperCase() as CountryCode)}`;
    } catch {
      // Unknown country: fall through to the default.
    }
  }
  return '+61';
}

export const PHONE_INVALID = 'Enter a valid phone number, such as +61 2 9876 5432.';

/**
 * Normalises a phone number to +digits: a leading + is kept; 00 becomes +; a leading 0 is replaced
 * by the country code; a local format known for the country gets the country code. The result has
 * 5 to 16 characters including the +.
 */
export function normalizePhone(input: string, country?: string | null): Validation {
  const compact = input.trim().replace(/[\s\-().]/g, '');
  if (compact.length === 0) return fail(PHONE_INVALID);
  const code = callingCodeOf(country);
  let value: string | undefined;
  if (/^\+\d+$/.test(compact)) value = compact;
  else if (/^00\d+$/.test(compact)) value = `+${compact.slice(2)}`;
  else if (/^0\d+$/.test(compact)) value = `${code}${compact.slice(1)}`;
  else if (/^\d+$/.test(compact)) {
    if ((LOCAL_FORMATS[code] ?? []).some((format) => format.test(compact))) value = `${code}${compact}`;
    else if (country && /^[A-Za-z]{2}$/.test(country)) {
      // Other countries: whatever libphonenumber knows as a valid national number there.
      const parsed = parsePhoneNumberFromString(compact, country.toUpperCase() as CountryCode);
      if (parsed?.isValid()) value = parsed.number;
    }
  }
  if (value?.startsWith('+61') && AU_NATIONAL_ONLY.test(value.slice(3))) return ok(value.slice(3));
  if (value === undefined || value.length < 5 || value.length > 16) return fail(PHONE_INVALID);
  return ok(value);
}

/**
 * A phone search term as numbers are stored (+ and digits): an international number ("+61 2 …",
 * "0061 2 …") becomes +digits; a national one ("02 9876 5432") loses its trunk 0, so it matches the
 * stored number whatever its country code; anything else is matched as typed, less spaces and
 * punctuation.
 */
export function phoneSearchTerm(input: string): string {
  const compact = input.trim().replace(/[\s\-().]/g, '');
  if (/^00\d+$/.test(compact)) return `+${compact.slice(2)}`;
  if (/^0\d+$/.test(compact)) return compact.slice(1);
  return compact;
}

/** A normalised number for display: international format when libphonenumber knows it. */
export function formatPhone(value: string): string {
  if (AU_NATIONAL_ONLY.test(value)) {
    return value.length === 6
      ? value.replace(/^(\d{2})(\d{2})(\d{2})$/, '$1 $2 $3')
      : value.replace(/^(\d{4})(\d{3})(\d{3})$/, '$1 $2 $3');
  }
  const parsed = parsePhoneNumberFromString(value);
  return parsed?.isPossible() ? parsed.formatInternational() : value;
}
