// What other features use of authentication.
export type { Actor } from './actor.js';
export { hasPermission, mayAtScope, ownerScopeFor, scopesWithPermission } from './actor.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { permissionFirst, requireActor, requirePermission, signedInOnly } from './policy.js';
export * as authRepository from './repository.js';
export type { SigninInput } from './service.js';
export { authenticate, SIGNIN_FAILURE_TEXT, startSession, toUserState } from './service.js';
export { endUserSessions } from './sessions.js';
