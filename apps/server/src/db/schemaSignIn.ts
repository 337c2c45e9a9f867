import type { Generated } from 'kysely';
import type { NullableBigint, NullableTimestamp, RequiredTimestamp, Timestamp } from './schemaTypes.js';

// The tables of signing in: failures counted for the lockout, single sign-on links and logout
// tokens, second factors, recovery codes and the challenge between the two steps.

export interface SigninFailuresTable {
  id: Generated<string>;
  ip: string;
  username: string;
  failed_at: Timestamp;
}

export interface SsoLoginsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_url: string;
  created_at: Timestamp;
}

export interface SsoUnlinkedSubjectsTable {
  subject: string;
  user_id: string;
  unlinked_by: string | null;
  unlinked_at: Timestamp;
}

export interface SsoLogoutTokensTable {
  jti: string;
  expires_at: RequiredTimestamp;
  used_at: Generated<Date>;
}

export interface SecondFactorsTable {
  id: string;
  user_id: string;
  kind: string;
  name: string;
  /** Encrypted (AES-256-GCM) with the key `second-factor-secrets` in app_secrets. */
  secret: string;
  last_used_step: NullableBigint;
  confirmed_at: NullableTimestamp;
  created_at: Timestamp;
  /** Migration 20261202_9001, of a passkey: its credential id, COSE public key (base64url), transports (JSON). */
  credential_id: string | null;
  public_key: string | null;
  transports: string | null;
  sign_count: NullableBigint;
}

/** Migration 20261202_9003: browsers that may skip the second step until expires_at. */
export interface RememberedDevicesTable {
  id: string;
  user_id: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: string;
  user_id: string | null;
  expires_at: RequiredTimestamp;
}

export interface RecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
}

export interface SigninChallengesTable {
  id: string;
  user_id: string;
  expires_at: RequiredTimestamp;
  created_at: Timestamp;
  /** Migration 20261202_9004: of a single sign-on, the provider's session for the session to come (JSON). */
  sso: string | null;
}
