import {
  type AuthMethod,
  formatRoleString,
  isWithinScope,
  type Permission,
  permissionsOfRole,
  type RoleGrant,
  type UserState,
} from '@dossier/core';

/** The signed-in user as the server sees it for one request. */
export interface Actor {
  id: string;
  name: string;
  email: string;
  locale: string;
  /** The phone prefix numbers are read with (+61). */
  countryCode: string;
  /** The user's two-letter country (AU), where it has one. */
  country?: string | null;
  scope: string;
  roles: RoleGrant[];
  permissions: Permission[];
  sessionId: string;
  /** The session may only enrol the second factor the user's roles require (issue 35). */
  mustEnrol?: boolean;
  /** How the session was authenticated (issue 35); absent for callers without a session (API keys). */
  authMethod?: AuthMethod;
  /**
   * The user must change the password before going on (set by an administrator while the session
   * was open): the session hook does not let such an actor act (http/session.ts).
   */
  passwordMustChange?: true;
  /** A call of the public API (its key's service user): the access log names it as an API client. */
  viaApi?: true;
}

export function hasPermission(actor: Actor | undefined, permission: Permission): boolean {
  return actor?.permissions.includes(permission) ?? false;
}

/** The scopes in which the actor holds a role that grants the permission. */
export function scopesWithPermission(actor: Actor, permission: Permission): string[] {
  return actor.roles.filter((r) => permissionsOfRole(r.role).includes(permission)).map((r) => r.scope);
}

/**
 * The scopes where the actor may use the permission: those of its roles that grant it. An API key
 * holds the permission by its API scopes rather than by a role, and acts at the key's own scope.
 */
export function permissionScopes(actor: Actor, permission: Permission): string[] {
  const scopes = scopesWithPermission(actor, permission);
  return scopes.length === 0 && actor.permissions.includes(permission) ? [actor.scope] : scopes;
}

/** May the actor use the permission on something owned by `scope` (at it or under it)? */
export function mayAtScope(actor: Actor, permission: Permission, scope: string): boolean {
  return permissionScopes(actor, permission).some((s) => isWithinScope(scope, s));
}

/** The scope a new entry the actor makes belongs to: its own, else the first it may act at. */
export function ownerScopeFor(actor: Actor, permission: Permission): string {
  if (mayAtScope(actor, permission, actor.scope)) return actor.scope;
  return permissionScopes(actor, permission)[0] ?? actor.scope;
}

export function toUserState(actor: Actor): UserState {
  return {
    id: actor.id,
    email: actor.email,
    name: actor.name,
    locale: actor.locale,
    countryCode: actor.countryCode,
    roles: actor.roles.map(formatRoleString),
    permissions: actor.permissions,
  };
}
