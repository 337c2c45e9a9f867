import { type Permission, permissionsOfRole, type RoleGrant } from '@dossier/core';

/** The signed-in user as the server sees it for one request. */
export interface Actor {
  id: string;
  name: string;
  email: string;
  locale: string;
  countryCode: string;
  scope: string;
  roles: RoleGrant[];
  permissions: Permission[];
  sessionId: string;
}

export function hasPermission(actor: Actor | undefined, permission: Permission): boolean {
  return actor?.permissions.includes(permission) ?? false;
}

/** The scopes in which the actor holds a role that grants the permission. */
export function scopesWithPermission(actor: Actor, permission: Permission): string[] {
  return actor.roles.filter((r) => permissionsOfRole(r.role).includes(permission)).map((r) => r.scope);
}
