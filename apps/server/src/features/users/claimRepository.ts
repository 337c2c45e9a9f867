import type { RoleGrant } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { likeStartsWith } from '../../db/search.js';
import { removeGrants } from './repository.js';

// SQL of role claims: external roles users gave themselves, granting nothing until approved.

export interface RoleClaim extends RoleGrant {
  id: string;
  claimedAt: Date;
}

export async function findClaims(db: DbOrTrx, userId: string): Promise<RoleClaim[]> {
  const rows = await db
    .selectFrom('role_claims')
    .select(['id', 'role', 'scope', 'external_reference', 'claimed_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map(toClaim);
}

function toClaim(r: {
  id: string;
  role: string;
  scope: string;
  external_reference: string | null;
  claimed_at: Date;
}): RoleClaim {
  return {
    id: r.id,
    role: r.role,
    scope: r.scope,
    claimedAt: r.claimed_at,
    ...(r.external_reference === null ? {} : { externalReference: r.external_reference }),
  };
}

export async function addClaims(db: DbOrTrx, userId: string, grants: RoleGrant[]): Promise<void> {
  if (grants.length === 0) return;
  await db
    .insertInto('role_claims')
    .values(
      grants.map((g) => ({
        user_id: userId,
        role: g.role,
        scope: g.scope,
        external_reference: g.externalReference ?? null,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export function removeClaims(db: DbOrTrx, userId: string, grants: RoleGrant[]): Promise<void> {
  return removeGrants(db, 'role_claims', userId, grants);
}

/** Takes a claim out (to approve or refuse it); answers it, or undefined when it is gone. */
export async function takeClaim(
  db: DbOrTrx,
  userId: string,
  claimId: string,
): Promise<RoleClaim | undefined> {
  const row = await db
    .deleteFrom('role_claims')
    .where('id', '=', claimId)
    .where('user_id', '=', userId)
    .returning(['id', 'role', 'scope', 'external_reference', 'claimed_at'])
    .executeTakeFirst();
  return row && toClaim(row);
}

export interface WaitingClaim {
  id: string;
  userId: string;
  userName: string;
  role: string;
  scope: string;
  externalReference: string | null;
  claimedAt: Date;
}

/** The oldest claims waiting at or under any of `scopes`, with who made them. */
export function listClaimsInScopes(db: DbOrTrx, scopes: string[], limit: number): Promise<WaitingClaim[]> {
  if (scopes.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('role_claims as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'c.id',
      'c.user_id as userId',
      'u.name as userName',
      'c.role',
      'c.scope',
      'c.external_reference as externalReference',
      'c.claimed_at as claimedAt',
    ])
    .where((eb) => eb.or(scopes.map((s) => eb('c.scope', 'like', likeStartsWith(s)))))
    .orderBy('c.claimed_at')
    .limit(limit)
    .execute();
}
