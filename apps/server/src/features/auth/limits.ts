import { tryAgainIn } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { addressInRanges } from './ipRanges.js';
import * as repo from './repository.js';

// Limits that spare an office (issue 35 item 5). Failed sign-ins count per account (the lockout)
// and per address together, but the address limit only slows what fails: a right password (and
// second factor) of an account that is not locked signs in from an address over its limit, so
// one person's typos do not lock out everyone behind the same address. Trusted ranges of the
// configuration lift the address limit altogether.

export const ADDRESS_WINDOW_MINUTES = 15;

/** The trusted address ranges (the root scope entry's, wired in app.ts like the IP ranges). */
export type TrustedAddresses = (db: DbOrTrx) => Promise<readonly string[]>;

let trustedAddresses: TrustedAddresses | undefined;

export function useTrustedAddresses(lookup: TrustedAddresses): void {
  trustedAddresses = lookup;
}

/**
 * Seconds until the address may fail again, when it is over its limit and not trusted; undefined
 * otherwise. Read before the current failure is recorded.
 */
export async function addressWait(
  db: DbOrTrx,
  ip: string,
  limitPerWindow: number,
  now = Date.now(),
): Promise<number | undefined> {
  const windowMs = ADDRESS_WINDOW_MINUTES * 60_000;
  const oldest = await repo.limitingFailureFromIp(db, ip, limitPerWindow, new Date(now - windowMs));
  if (!oldest) return undefined;
  const trusted = (await trustedAddresses?.(db)) ?? [];
  // An empty list admits every address in addressInRanges: here it must trust none.
  if (trusted.length > 0 && addressInRanges(ip, trusted)) return undefined;
  return Math.max(1, Math.ceil((oldest.getTime() + windowMs - now) / 1000));
}

/** Seconds until a locked account may sign in again, or undefined when it is not locked. */
export function lockWait(lockedUntil: Date | null | undefined, now = Date.now()): number | undefined {
  if (!lockedUntil || lockedUntil.getTime() <= now) return undefined;
  return Math.max(1, Math.ceil((lockedUntil.getTime() - now) / 1000));
}

/** A refusal's text with when to try again (or "later" where the wait is not known). */
export function withRetry(text: string, retryAfterSeconds: number | undefined): string {
  return `${text} ${retryAfterSeconds ? tryAgainIn(retryAfterSeconds) : 'Please try again later.'}`;
}
