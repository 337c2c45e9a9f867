// What other features use of user administration.

export { addClaims, findClaims, removeClaims } from './claimRepository.js';
export { settleDisabledUser, settleRemovedRoles } from './disable.js';
export * as usersRepository from './repository.js';
export { manageableUsers } from './repository.js';
export { scopeNames, selfRoleScopes } from './scopes.js';
export {
  assertUnique,
  auditShape,
  diffRoles,
  mapUniqueViolation,
  parseRoles,
  personalColumns,
  userFormOf,
} from './userData.js';
