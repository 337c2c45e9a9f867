import { z } from 'zod';
import { normalizeUrl, parseAddressLines } from './inputRules.js';

// The shared input rules (docs/ARCHITECTURE.md, "Shared input rules, applied once"), used by the forms to show an
// error next to a field and by the server to answer 400 with the same message. The phone number
// rules are in phone.ts.

export type Validation = { ok: true; value: string } | { ok: false; message: string };

const ok = (value: string): Validation => ({ ok: true, value });
const fail = (message: string): Validation => ({ ok: false, message });

// The HTML5 e-mail rule (a local part, '@', and dot-separated domain labels of 1 to 63 characters:
// letters, digits, inner hyphens), with at least two domain labels.
const EMAIL_LOCAL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+$/;
const EMAIL_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export const EMAIL_MAX_LENGTH = 254;

export function isValidEmail(value: string): boolean {
  if (value.length === 0 || value.length > EMAIL_MAX_LENGTH) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at === value.length - 1) return false;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  if (!EMAIL_LOCAL.test(local)) return false;
  // A domain of at least two labels: mail to 'user@localhost' would never arrive.
  const labels = domain.split('.');
  return labels.length >= 2 && labels.every((label) => EMAIL_LABEL.test(label));
}

export const EMAIL_INVALID = 'Enter a valid email address.';

export function validateEmail(input: string): Validation {
  const value = input.trim();
  return isValidEmail(value) ? ok(value) : fail(EMAIL_INVALID);
}

/**
 * The one email rule for route schemas: trimmed, then isValidEmail, the rule the browser's forms
 * check. zod's own z.email() differs (it takes a 64-character domain label), so no route uses it.
 */
export const emailSchema = z
  .string({ error: (issue) => (issue.input == null ? 'Email is required.' : EMAIL_INVALID) })
  .trim()
  .min(1, 'Email is required.')
  .max(EMAIL_MAX_LENGTH, EMAIL_INVALID)
  .refine(isValidEmail, EMAIL_INVALID);

export const USER_ID_MAX_LENGTH = 100;

/** User id: lowercase, at least 3 of a-z 0-9 . _ @; with an @ it must be an e-mail address. */
export function validateUserId(input: string): Validation {
  const value = input.trim();
  if (value.length < 3) return fail('A user id needs at least 3 characters.');
  if (value.length > USER_ID_MAX_LENGTH)
    return fail(`A user id has at most ${USER_ID_MAX_LENGTH} characters.`);
  if (!/^[a-z0-9._@]+$/.test(value)) {
    return fail('A user id may only contain lowercase letters, digits, dots, underscores and @.');
  }
  if (value.includes('@') && !isValidEmail(value))
    return fail('A user id with @ must be a valid email address.');
  return ok(value);
}

/** Address parsing (commas removed, lines trimmed, empty lines dropped): one rule, in inputRules. */
export const parseAddress = parseAddressLines;

export function formatAddress(lines: readonly string[]): string {
  return lines.join('\n');
}

export const WEB_ADDRESS_INVALID = 'Enter a web address starting with http:// or https://.';

/** A web address: protocol required, credentials stripped. */
export function validateWebAddress(
  input: string,
  options: { httpsOnly?: boolean | undefined } = {},
): Validation {
  const value = normalizeUrl(input, options);
  return value ? ok(value) : fail(WEB_ADDRESS_INVALID);
}

/**
 * What a web address field holds once left: the address as it will be stored, or the text as typed
 * when it is no address (its error says why, rather than the text vanishing).
 */
export function cleanWebAddress(input: string | null | undefined): string {
  const text = (input ?? '').trim();
  return normalizeUrl(text) || text;
}

/** What an address field holds once left, and what is stored: one line per line of the address. */
export function cleanAddress(input: string | null | undefined): string {
  return formatAddress(parseAddressLines(input ?? ''));
}
