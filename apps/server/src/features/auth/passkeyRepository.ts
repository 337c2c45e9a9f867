import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';

// The SQL of passkeys (second_factors of kind 'passkey') and of WebAuthn challenges.

export function insertPasskey(
  db: DbOrTrx,
  row: {
    id: string;
    userId: string;
    name: string;
    credentialId: string;
    publicKey: string;
    transports: string[];
    signCount: number;
  },
) {
  return db
    .insertInto('second_factors')
    .values({
      id: row.id,
      user_id: row.userId,
      kind: 'passkey',
      name: row.name,
      secret: '',
      credential_id: row.credentialId,
      public_key: row.publicKey,
      transports: JSON.stringify(row.transports),
      sign_count: row.signCount,
      confirmed_at: sql`now()`,
    })
    .execute();
}

/** The user's passkeys (their credentials). */
export function passkeysOf(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('second_factors')
    .select(['id', 'user_id', 'name', 'credential_id', 'public_key', 'transports', 'sign_count'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'passkey')
    .where('confirmed_at', 'is not', null)
    .orderBy('created_at')
    .execute();
}

/** The passkey with this credential id, whoever's it is. */
export function findPasskeyByCredential(db: DbOrTrx, credentialId: string) {
  return db
    .selectFrom('second_factors')
    .select(['id', 'user_id', 'name', 'credential_id', 'public_key', 'transports', 'sign_count'])
    .where('credential_id', '=', credentialId)
    .where('kind', '=', 'passkey')
    .where('confirmed_at', 'is not', null)
    .executeTakeFirst();
}

/**
 * Moves the signature counter forward once: false when another use already reached this count (a
 * replayed or cloned authenticator). Authenticators that keep no counter report 0 every time.
 */
export async function advanceSignCount(db: DbOrTrx, id: string, count: number): Promise<boolean> {
  const result = await db
    .updateTable('second_factors')
    .set({ sign_count: count })
    .where('id', '=', id)
    .where((eb) =>
      count === 0
        ? eb.or([eb('sign_count', 'is', null), eb('sign_count', '=', '0')])
        : eb.or([eb('sign_count', 'is', null), eb('sign_count', '<', String(count))]),
    )
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function insertWebauthnChallenge(
  db: DbOrTrx,
  row: { challenge: string; purpose: string; userId: string | null; expiresAt: Date },
) {
  await db.deleteFrom('webauthn_challenges').where('expires_at', '<', new Date()).execute();
  await db
    .insertInto('webauthn_challenges')
    .values({
      challenge: row.challenge,
      purpose: row.purpose,
      user_id: row.userId,
      expires_at: row.expiresAt,
    })
    .execute();
}

/** Takes a live challenge once: its user (null for a passwordless sign-in), or undefined. */
export async function takeWebauthnChallenge(db: DbOrTrx, challenge: string, purpose: string) {
  return db
    .deleteFrom('webauthn_challenges')
    .where('challenge', '=', challenge)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', new Date())
    .returning(['user_id'])
    .executeTakeFirst();
}
