import { isValidRequestNumber } from '@dossier/core';

// What in an incoming message points at a request: request numbers written in its subject or body,
// and the Message-IDs it answers. A number is only believed when its check digits are right, so a
// mistyped or forged number never links a message to somebody else's request.

const CANDIDATE = /\b[A-Z]{3}\d{6}[A-Z]{3}\d{2}\b/g;
const MAX_NUMBERS = 5;

export function requestNumbersIn(...texts: string[]): { valid: string[]; rejected: string[] } {
  const valid = new Set<string>();
  const rejected = new Set<string>();
  for (const text of texts) {
    for (const match of text.slice(0, 200_000).toUpperCase().matchAll(CANDIDATE)) {
      (isValidRequestNumber(match[0]) ? valid : rejected).add(match[0]);
    }
  }
  return { valid: [...valid].slice(0, MAX_NUMBERS), rejected: [...rejected] };
}

/** The Message-IDs a reply refers to: In-Reply-To first, then References. */
export function threadIds(inReplyTo: string | null, references: string[]): string[] {
  return [...new Set([...(inReplyTo ? [inReplyTo] : []), ...references])].slice(0, 50);
}

/** Reference-like words of a message (letters and digits with a digit, such as AC-1001). */
export function referencesIn(...texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts)
    for (const match of text.slice(0, 20_000).matchAll(/\b[A-Za-z0-9][A-Za-z0-9\-/]{2,29}\b/g)) {
      if (/\d/.test(match[0]) && /[A-Za-z]/.test(match[0])) found.add(match[0]);
      if (found.size >= 20) return [...found];
    }
  return [...found];
}

/** Names as written in a message: two or three capitalised words in a row ("Jane Citizen"). */
export function namesIn(...texts: string[]): string[] {
  const found = new Set<string>();
  for (const text of texts)
    for (const match of text.slice(0, 5_000).matchAll(/\b[A-Z][a-z'-]+(?: [A-Z][a-z'-]+){1,2}\b/g)) {
      found.add(match[0]);
      if (found.size >= 10) return [...found];
    }
  return [...found];
}
