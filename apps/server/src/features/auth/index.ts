// What other features use of authentication. The actor and the route guards are the platform's
// (http/actor.ts, http/guards.ts): features take them from here as they always did.
export type { Actor } from '../../http/actor.js';
export {
  hasPermission,
  mayAtScope,
  ownerScopeFor,
  scopesWithPermission,
  toUserState,
} from '../../http/actor.js';
export { permissionFirst, requireActor, requirePermission, signedInOnly } from '../../http/guards.js';
export { mustEnrolSecondFactor } from './enrolmentGuard.js';
export { hashPassword, verifyPassword } from './passwords.js';
export * as authRepository from './repository.js';
export {
  beginEnrolment,
  confirmEnrolment,
  hasSecondFactor,
  listSecondFactors,
  regenerateRecoveryCodes,
  removeSecondFactor,
  resetSecondFactors,
  secondFactorKinds,
} from './secondFactors.js';
export { type AfterPassword, afterRightPassword, beginChallenge } from './secondStep.js';
export type { SigninInput } from './service.js';
export {
  authenticate,
  SIGNIN_FAILURE_TEXT,
  sessionIdOf,
  signinFailureMessage,
  startSession,
} from './service.js';
export { endUserSessions } from './sessions.js';
