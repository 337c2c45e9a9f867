// The rules of second factors (issue 35), shared by the server and the web app.

/** The kinds of second factor a user may hold. */
export const SECOND_FACTOR_KINDS = ['totp', 'passkey'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

/** How a session was authenticated: a password alone, a password and a code, a passkey, single sign-on. */
export const AUTH_METHODS = ['password', 'secondFactor', 'passkey', 'sso', 'rememberedDevice'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** The `amr` values (RFC 8176) that say the identity provider asked for more than a password. */
export const SSO_SECOND_FACTOR_AMR = ['mfa', 'otp', 'hwk', 'swk'] as const;

/**
 * Whether an identity provider's ID token says the sign-in there had a second factor: an `amr`
 * with mfa, otp, hwk or swk, or an `acr` the configuration lists (SSO_SECOND_FACTOR_ACR).
 */
export function ssoTokenHasSecondFactor(
  claims: { amr?: unknown; acr?: unknown } | undefined,
  acceptedAcr: readonly string[],
): boolean {
  const amr = Array.isArray(claims?.amr) ? claims.amr : [];
  if (amr.some((m) => (SSO_SECOND_FACTOR_AMR as readonly unknown[]).includes(m))) return true;
  return typeof claims?.acr === 'string' && acceptedAcr.includes(claims.acr);
}

/** How many one-time recovery codes a user gets at a time. */
export const RECOVERY_CODE_COUNT = 10;

/** A code as typed: spaces and dashes are only for reading, letters in either case. */
export function normaliseSecondFactorCode(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase();
}

/** A code generator's code: six digits (RFC 6238 with the usual 30-second step). */
export function isTimeBasedCode(input: string): boolean {
  return /^\d{6}$/.test(normaliseSecondFactorCode(input));
}

/** A recovery code: ten letters and digits, shown as two groups of five. */
export function isRecoveryCode(input: string): boolean {
  return /^[a-z0-9]{10}$/.test(normaliseSecondFactorCode(input));
}

/** Shows a recovery code the way it is handed out: `abcde-12345`. */
export function formatRecoveryCode(code: string): string {
  const plain = normaliseSecondFactorCode(code);
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}

/** Whether a user holding these roles must hold a second factor, given the roles the scope names. */
export function mustHoldSecondFactor(
  userRoles: readonly string[],
  requiredRoles: readonly string[] | undefined,
): boolean {
  if (!requiredRoles || requiredRoles.length === 0) return false;
  return userRoles.some((role) => requiredRoles.includes(role));
}

/**
 * Removing a user's last second factor lowers the sign-in back to a password alone: it needs the
 * current password and a code, so a session left open cannot do it.
 */
export function removalNeedsReauthentication(confirmedFactors: number): boolean {
  return confirmedFactors <= 1;
}

/**
 * The roles that must hold a second factor at a scope: those named by its scope entry or by the
 * scope entry of any scope above it (a requirement is inherited down the tree, never lifted below).
 */
export function secondFactorRolesAt(
  scopePath: string,
  entries: readonly { scopePath: string; secondFactorRoles: readonly string[] }[],
): string[] {
  const roles = new Set<string>();
  for (const entry of entries) {
    if (scopePath.startsWith(entry.scopePath)) for (const role of entry.secondFactorRoles) roles.add(role);
  }
  return [...roles].sort();
}

/** Whether any of a user's role grants (role at scope) falls under a requirement. */
export function grantsNeedSecondFactor(
  grants: readonly { role: string; scope: string }[],
  entries: readonly { scopePath: string; secondFactorRoles: readonly string[] }[],
): boolean {
  return grants.some((g) => mustHoldSecondFactor([g.role], secondFactorRolesAt(g.scope, entries)));
}

/**
 * The end of a refusal that makes someone wait (issue 35: every refusal says when to try again):
 * whole minutes, rounded up, or seconds under a minute.
 */
export function tryAgainIn(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return `Please try again in ${s} second${s === 1 ? '' : 's'}.`;
  const m = Math.ceil(s / 60);
  return `Please try again in ${m} minute${m === 1 ? '' : 's'}.`;
}
