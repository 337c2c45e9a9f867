import {
  type ApiScope,
  DEFAULT_COUNTRY_CODE,
  DEFAULT_LOCALE,
  type Permission,
  type Role,
  type RoleGrant,
} from '@dossier/core';
import type { Actor } from '../auth/index.js';
import type { ApiKey } from './keys.js';

// A call of the public API acts as the key: a service user of its own (so every change is recorded
// with who made it, like a person's), holding roles at the key's scope path only. The shared services
// check roles, so the key holds the roles whose checks its API scopes must pass; each API route
// checks its own API scope first, so nothing beyond what the scopes name is reachable.

/** The id of the key's service user (users.id): stable per configuration and key id. */
export function apiUserIdOf(key: Pick<ApiKey, 'configurationId' | 'kid'>): string {
  return `api:${key.configurationId}:${key.kid}`;
}

const SENDER_VIEW_SCOPES: ApiScope[] = ['requestRead', 'requestResultRead', 'fileRead'];
const HANDLE_SCOPES: ApiScope[] = ['requestResultWrite', 'requestInvoiceWrite'];

const PERMISSIONS_OF_SCOPE: Partial<Record<ApiScope, Permission[]>> = {
  requestRead: ['request:view', 'request:view:content'],
  requestWrite: ['request:submit', 'request:view'],
  requestResultRead: ['request:view'],
  requestResultWrite: ['request:view', 'request:handle'],
  requestInvoiceRead: ['request:view'],
  requestInvoiceWrite: ['request:view', 'request:handle'],
  fileRead: ['request:view'],
  payeeRead: ['payee:view'],
  payeeWrite: ['payee:view', 'payee:edit'],
};

/**
 * A key that works requests (writes results or invoices) is staff, and so is one that reads
 * invoices (staff business: payments, bank details). Any other key is the sender's system: like a
 * submitter it sees a result only once it is delivered (quality-assured or QA skipped).
 */
function rolesOf(scopes: ApiScope[]): Role[] {
  const roles: Role[] = [];
  if (scopes.includes('requestWrite')) roles.push('c:roles:submitter');
  if (scopes.some((s) => HANDLE_SCOPES.includes(s))) roles.push('c:roles:handler');
  else if (scopes.includes('requestInvoiceRead')) roles.push('c:roles:manager');
  else if (!roles.length && scopes.some((s) => SENDER_VIEW_SCOPES.includes(s)))
    roles.push('c:roles:submitter');
  return roles;
}

export function apiActorOf(key: ApiKey): Actor {
  const roles: RoleGrant[] = rolesOf(key.apiScopes).map((role) => ({ role, scope: key.scopePath }));
  const permissions = [...new Set(key.apiScopes.flatMap((s) => PERMISSIONS_OF_SCOPE[s] ?? []))];
  return {
    id: apiUserIdOf(key),
    name: `API key ${key.name || key.kid}`,
    email: '',
    locale: DEFAULT_LOCALE,
    countryCode: DEFAULT_COUNTRY_CODE,
    scope: key.scopePath,
    roles,
    permissions,
    sessionId: `api:${key.kid}`,
    viaApi: true,
  };
}
