// Request numbers: the sender's three-letter prefix, the submission date as YYMMDD, three random
// letters and two check digits (ISO 7064 MOD 97-10 over the rest, letters counted A=10 … Z=35 as in
// IBANs), e.g. ACM251122QXT42. The check digits let a form reject a mistyped number before any lookup.

import { dateInTimeZone } from './businessDays.js';

export const REQUEST_NUMBER_PATTERN = /^[A-Z]{3}\d{6}[A-Z]{3}\d{2}$/;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = char >= 'A' && char <= 'Z' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

export function checkDigits(body: string): string {
  return String(98 - mod97(`${body}00`)).padStart(2, '0');
}

/** A new request number for a prefix and submission date; `random` is for tests. */
export function createRequestNumber(
  prefix: string,
  submittedAt: Date,
  random: () => number = Math.random,
): string {
  // The day of submission where the business is (the day every page shows), not in UTC.
  const yymmdd = dateInTimeZone(submittedAt).slice(2).replaceAll('-', '');
  const letters = Array.from({ length: 3 }, () => LETTERS[Math.floor(random() * 26)]).join('');
  const body = `${prefix.toUpperCase()}${yymmdd}${letters}`;
  return `${body}${checkDigits(body)}`;
}

/** True for a well-formed request number whose check digits match. */
export function isValidRequestNumber(value: string): boolean {
  return REQUEST_NUMBER_PATTERN.test(value) && mod97(value) === 1;
}
