import { DEFAULT_PASSWORD_POLICY, isWithinScope, type PasswordPolicy, ROLES } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { getPasswordPolicy, listScopeEntries } from '../configuration/index.js';

// What the user forms offer, read from the scope entries of the configuration (issue 4):
// a user may be created in scopes with usage createUser, every role may be granted in scopes with
// usage assignUserRole, and a registered user may add the external role in scopes with usage
// selfAssignUserRole. IP ranges and the password policy come from the scope entry too.

export interface ScopeOption {
  scopePath: string;
  name: string;
  ipRanges: { id: string; isDefault: boolean }[];
  passwordPolicy: PasswordPolicy;
}

export interface RoleScopeOption {
  scopePath: string;
  roles: string[];
}

export interface UserFormOptions {
  /** Scopes a user may be put in (createUser), inside the given admin scopes. */
  scopes: ScopeOption[];
  /** Scopes roles may be granted at (assignUserRole, and the root to a root administrator), each with the roles offered there. */
  roleScopes: RoleScopeOption[];
  /** The name of every scope with an entry (its organisation), for role chips and choices. */
  scopeNames: Record<string, string>;
}

const within = (path: string, adminScopes: readonly string[]) =>
  adminScopes.some((s) => isWithinScope(path, s));

export async function userFormOptions(db: DbOrTrx, adminScopes: readonly string[]): Promise<UserFormOptions> {
  const entries = await listScopeEntries(db);
  const mine = entries.filter((e) => within(e.scopePath, adminScopes));
  const roleScopes = mine
    .filter((e) => e.usages.includes('assignUserRole'))
    .map((e) => ({ scopePath: e.scopePath, roles: [...ROLES] }));
  // The root is where a second root administrator and an all-organisation handler are granted:
  // an administrator at the root is offered every role there, whatever the root's scope entry says.
  if (adminScopes.includes('/') && !roleScopes.some((r) => r.scopePath === '/'))
    roleScopes.unshift({ scopePath: '/', roles: [...ROLES] });
  return {
    scopes: mine
      .filter((e) => e.usages.includes('createUser'))
      .map((e) => ({
        scopePath: e.scopePath,
        name: e.name,
        ipRanges: e.ipRanges.map((r) => ({ id: r.id, isDefault: r.isDefault })),
        passwordPolicy: e.passwordPolicy ?? DEFAULT_PASSWORD_POLICY,
      })),
    roleScopes,
    scopeNames: namesOf(entries),
  };
}

const namesOf = (entries: readonly { scopePath: string; name: string }[]) =>
  Object.fromEntries(entries.map((e) => [e.scopePath, e.name]));

/** The name of every scope with an entry: people read organisations by name, not by path. */
export async function scopeNames(db: DbOrTrx): Promise<Record<string, string>> {
  return namesOf(await listScopeEntries(db));
}

/** The scope option of a path (its entry's ranges and policy), for a user's current scope. */
export async function scopeOptionOf(db: DbOrTrx, scopePath: string): Promise<ScopeOption> {
  const entries = await listScopeEntries(db);
  const e = entries.find((x) => x.scopePath === scopePath);
  return {
    scopePath,
    name: e?.name ?? scopePath,
    ipRanges: (e?.ipRanges ?? []).map((r) => ({ id: r.id, isDefault: r.isDefault })),
    passwordPolicy: e?.passwordPolicy ?? (await getPasswordPolicy(db, scopePath)),
  };
}

/** Scopes where a registered user may add the external role (usage selfAssignUserRole). */
export async function selfRoleScopes(db: DbOrTrx): Promise<string[]> {
  return (await listScopeEntries(db))
    .filter((e) => e.usages.includes('selfAssignUserRole'))
    .map((e) => e.scopePath);
}
