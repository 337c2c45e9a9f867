import { createHash, randomBytes } from 'node:crypto';
import {
  AUTH_METHODS,
  type AuthMethod,
  DEFAULT_COUNTRY_CODE,
  DEFAULT_LOCALE,
  permissionsOfRoles,
} from '@dossier/core';
import type { Config } from '../../config.js';
import type { DbOrTrx } from '../../db/database.js';
import type { Actor } from '../../http/actor.js';
import type { ResolvedSession } from '../../http/sessionCache.js';
import { addressInRanges } from './ipRanges.js';
import { addressWait, lockWait, withRetry } from './limits.js';
import { verifyPassword } from './passwords.js';
import * as repo from './repository.js';

/** Why a sign-in failed; the sign-in page maps each to its text. */
export type SigninFailure =
  | 'invalid'
  | 'locked'
  | 'tooMany'
  | 'unconfirmed'
  | 'ipRange'
  | 'passwordMustChange';

export const SIGNIN_FAILURE_TEXT: Record<SigninFailure, string> = {
  invalid: 'Invalid username and/or password.',
  locked: 'This account is temporarily locked after repeated failed sign-ins.',
  tooMany: 'Too many failed sign-ins from this address.',
  unconfirmed: 'Please confirm your email address first: follow the link in the email we sent you.',
  ipRange: 'Signing in to this account is not allowed from your network address.',
  passwordMustChange: 'Your password must be changed before you can sign in.',
};

/** Failures that make someone wait: their texts end with when to try again. */
const WAITING_FAILURES = new Set<SigninFailure>(['locked', 'tooMany']);

/** The text of a sign-in failure, with when to try again where it makes the user wait. */
export function signinFailureMessage(failure: SigninFailure, retryAfterSeconds?: number): string {
  const text = SIGNIN_FAILURE_TEXT[failure];
  return WAITING_FAILURES.has(failure) ? withRetry(text, retryAfterSeconds) : text;
}

export type SigninResult =
  | { ok: true; token: string; userId: string }
  | { ok: false; failure: SigninFailure; retryAfterSeconds?: number };

export function sessionIdOf(token: string): string {
  // Only a hash of the cookie value is stored, so a database leak does not leak live sessions.
  return createHash('sha256').update(token).digest('base64url');
}

export interface SigninInput {
  username: string;
  password: string;
  ip: string;
  userAgent: string | null;
  previousToken?: string | undefined;
}

/**
 * Checks the credentials and everything else that stands between them and a session: lockout,
 * disabled, the e-mail confirmation of a registered account, the IP range of the user's scope,
 * and (unless `allowPasswordChange`) a password that must be changed first.
 */
export async function authenticate(
  db: DbOrTrx,
  config: Config,
  input: SigninInput,
  options: { allowPasswordChange?: boolean } = {},
): Promise<
  | { ok: true; userId: string; scope: string }
  | { ok: false; failure: SigninFailure; retryAfterSeconds?: number }
> {
  const now = Date.now();
  const user = await repo.findUserForSignin(db, input.username);
  // Always verify once, against a dummy hash for unknown users, so timing does not tell them apart.
  const passwordOk = await verifyPassword(user?.password_hash ?? null, input.password);
  const lockedFor = lockWait(user?.locked_until, now);
  if (!user || !passwordOk || user.disabled || lockedFor) {
    // The address limit slows only what fails: read before this failure counts.
    const addressFor = await addressWait(db, input.ip, config.signin.ipLimitPerWindow, now);
    await repo.recordFailure(db, input.ip, input.username);
    if (user && !lockedFor && !user.disabled) {
      await repo.recordUserFailure(
        db,
        user.id,
        config.signin.maxFailures,
        new Date(now + config.signin.lockMinutes * 60_000),
      );
    }
    if (lockedFor) return { ok: false, failure: 'locked', retryAfterSeconds: lockedFor };
    if (addressFor) return { ok: false, failure: 'tooMany', retryAfterSeconds: addressFor };
    return { ok: false, failure: 'invalid' };
  }
  await repo.clearFailures(db, user.id);
  if (user.email_confirmed_at === null) return { ok: false, failure: 'unconfirmed' };
  if (!(await isAllowedAddress(db, user, input.ip))) return { ok: false, failure: 'ipRange' };
  if (user.password_must_change && !options.allowPasswordChange)
    return { ok: false, failure: 'passwordMustChange' };
  return { ok: true, userId: user.id, scope: user.scope };
}

/** The IP ranges in effect for a scope path (its nearest scope entry's), when there is one. */
export type ScopeIpRanges = (
  db: DbOrTrx,
  scopePath: string,
) => Promise<readonly { id: string; cidrs: readonly string[] }[] | undefined>;

let ipRangesOfScope: ScopeIpRanges | undefined;

/**
 * The ranges live in the configuration, which builds on this feature (its policies take an
 * actor), so the app wires the lookup in (app.ts) rather than this feature importing it.
 */
export function useScopeIpRanges(lookup: ScopeIpRanges): void {
  ipRangesOfScope = lookup;
}

/** The user's IP range (an id among the ranges of its scope entry) must contain the address. */
export async function isAllowedAddress(
  db: DbOrTrx,
  user: { ip_range: string | null; scope: string },
  ip: string,
) {
  if (!user.ip_range) return true;
  if (!ipRangesOfScope) throw new Error('The IP ranges of scopes are not wired: call useScopeIpRanges.');
  const range = (await ipRangesOfScope(db, user.scope))?.find((r) => r.id === user.ip_range);
  // A range that no longer exists admits nobody: the restriction is kept, not silently dropped.
  if (!range) return false;
  return addressInRanges(ip, range.cidrs);
}

export async function signIn(db: DbOrTrx, config: Config, input: SigninInput): Promise<SigninResult> {
  const checked = await authenticate(db, config, input);
  if (!checked.ok) return checked;
  return { ok: true, token: await startSession(db, config, checked.userId, input), userId: checked.userId };
}

/** A new session for a user who passed `authenticate`; answers the cookie value. */
export async function startSession(
  db: DbOrTrx,
  config: Config,
  userId: string,
  input: SigninInput,
  options: { mustEnrol?: boolean; authMethod?: AuthMethod } = {},
): Promise<string> {
  const now = Date.now();
  const user = { id: userId };
  // A new session id at every sign-in: a session fixed by someone else before sign-in is useless.
  if (input.previousToken) await repo.deleteSession(db, sessionIdOf(input.previousToken));
  const token = randomBytes(32).toString('base64url');
  await repo.insertSession(db, {
    id: sessionIdOf(token),
    userId: user.id,
    expiresAt: new Date(now + config.session.absoluteHours * 3_600_000),
    ip: input.ip,
    userAgent: input.userAgent,
    ...(options.mustEnrol ? { mustEnrol: true } : {}),
    authMethod: options.authMethod ?? 'password',
  });
  return token;
}

export async function signOut(db: DbOrTrx, token: string): Promise<string> {
  const id = sessionIdOf(token);
  await repo.deleteSession(db, id);
  return id;
}

/** The actor of a session cookie, or undefined when the session is unknown, expired or idle. */
export async function resolveSession(db: DbOrTrx, config: Config, token: string): Promise<Actor | undefined> {
  return (await resolveSessionEntry(db, config, token))?.actor;
}

/** The actor of a session cookie with the moment its session ends unless used again, for caching. */
export async function resolveSessionEntry(
  db: DbOrTrx,
  config: Config,
  token: string,
): Promise<ResolvedSession | undefined> {
  const idleMs = config.session.idleMinutes * 60_000;
  const now = Date.now();
  const session = await repo.findLiveSession(db, sessionIdOf(token), new Date(now - idleMs));
  if (!session) return undefined;
  let lastSeenAt = session.lastSeenAt.getTime();
  // Writing last_seen_at on every request would be a write per request; once a minute is enough,
  // or twice per idle time when that is shorter, so a session in use never reaches it.
  if (now - lastSeenAt > Math.min(60_000, idleMs / 2)) {
    await repo.touchSession(db, session.sessionId);
    lastSeenAt = now;
  }
  const roles = session.roles.map((r) => ({
    role: r.role,
    scope: r.scope,
    ...(r.external_reference === null ? {} : { externalReference: r.external_reference }),
  }));
  const actor: Actor = {
    id: session.id,
    name: session.name,
    email: session.email,
    locale: session.language ?? DEFAULT_LOCALE,
    countryCode: DEFAULT_COUNTRY_CODE,
    country: session.country,
    scope: session.scope,
    roles,
    permissions: permissionsOfRoles(roles.map((r) => r.role)),
    sessionId: session.sessionId,
    ...(session.mustEnrol ? { mustEnrol: true } : {}),
    authMethod: toAuthMethod(session.authMethod),
    ...(session.passwordMustChange ? { passwordMustChange: true as const } : {}),
  };
  return { actor, validUntil: Math.min(session.expiresAt.getTime(), lastSeenAt + idleMs) };
}

function toAuthMethod(stored: string): AuthMethod {
  return (AUTH_METHODS as readonly string[]).includes(stored) ? (stored as AuthMethod) : 'password';
}

export async function purgeExpired(db: DbOrTrx, config: Config): Promise<void> {
  const idleSince = new Date(Date.now() - config.session.idleMinutes * 60_000);
  await repo.deleteExpired(db, idleSince, new Date(Date.now() - 24 * 3_600_000));
}
