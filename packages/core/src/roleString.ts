// Role strings as the specification writes them: role[:encodedExternalReference]@scope.
// Inside the reference '%' is written '%25' and '@' is written '%40', so the last '@' always
// separates the scope.

export interface RoleGrant {
  role: string;
  externalReference?: string;
  scope: string;
}

export function encodeExternalReference(reference: string): string {
  return reference.replaceAll('%', '%25').replaceAll('@', '%40');
}

export function decodeExternalReference(encoded: string): string {
  return encoded.replaceAll('%40', '@').replaceAll('%25', '%');
}

export function formatRoleString(grant: RoleGrant): string {
  const reference =
    grant.externalReference === undefined ? '' : `:${encodeExternalReference(grant.externalReference)}`;
  return `${grant.role}${reference}@${grant.scope}`;
}

/** Parses a role string; answers undefined when it has no scope or no role. */
export function parseRoleString(value: string): RoleGrant | undefined {
  const at = value.indexOf('@');
  if (at <= 0 || at === value.length - 1) return undefined;
  const head = value.slice(0, at);
  const scope = value.slice(at + 1);
  // Role names contain colons themselves (c:roles:external), so the reference is whatever follows
  // the third colon-separated part.
  const parts = head.split(':');
  if (parts.length <= 3) return { role: head, scope };
  return {
    role: parts.slice(0, 3).join(':'),
    externalReference: decodeExternalReference(parts.slice(3).join(':')),
    scope,
  };
}

/** True for the external role, the only one a registered user may add or remove itself. */
export function isExternalRoleString(value: string): boolean {
  return parseRoleString(value)?.role === 'c:roles:external';
}
