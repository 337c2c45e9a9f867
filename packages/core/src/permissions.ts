// The one map from roles to the permission strings of the specification. Roles are granted at a
// scope and cover that scope and everything below it; the server decides scope, this file decides
// what each role may do at all.

export const ROLES = [
  'c:roles:admin',
  'c:roles:manager',
  'c:roles:handler',
  'c:roles:submitter',
  'c:roles:external',
] as const;
export type Role = (typeof ROLES)[number];
export const EXTERNAL_ROLE: Role = 'c:roles:external';

export const PERMISSIONS = [
  'request:submit',
  'request:view',
  'request:view:content',
  'request:handle',
  'inbox',
  'file:view:markAsDownloaded',
  'task:skills',
  'reports:view',
  'user:view',
  'user:edit',
  'recipient:view',
  'recipient:edit',
  'payee:view',
  'payee:edit',
  'configuration:view',
  'configuration:edit',
  // Our addition (the spec names no outbox): reading the outgoing mail of a scope, and queueing a
  // failed message again.
  'mail:view',
  'mail:edit',
  // Issue 36: a legal hold on a request (managers and administrators), and retention and erasure
  // on request (administrators).
  'request:legalHold',
  'retention:manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  'c:roles:admin': PERMISSIONS,
  'c:roles:manager': [
    'request:view',
    'request:view:content',
    'reports:view',
    'task:skills',
    'user:view',
    'recipient:view',
    'payee:view',
    'request:legalHold',
  ],
  'c:roles:handler': [
    'request:view',
    'request:view:content',
    'request:handle',
    'inbox',
    'file:view:markAsDownloaded',
    'recipient:view',
    'recipient:edit',
    'payee:view',
    'payee:edit',
  ],
  'c:roles:submitter': [
    'request:submit',
    'request:view',
    'request:view:content',
    'file:view:markAsDownloaded',
  ],
  'c:roles:external': ['request:view', 'request:view:content'],
};

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export function permissionsOfRole(role: string): readonly Permission[] {
  return isRole(role) ? ROLE_PERMISSIONS[role] : [];
}

/** The union of the permissions of every role, sorted, without repeats. */
export function permissionsOfRoles(roles: readonly string[]): Permission[] {
  const set = new Set<Permission>();
  for (const role of roles) for (const p of permissionsOfRole(role)) set.add(p);
  return PERMISSIONS.filter((p) => set.has(p));
}
