import { isWithinScope } from '@dossier/core';
import { authRepository as authRepo, verifyPassword } from '../../auth/index.js';
import { verifyCredentialsRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';
import { CREDENTIAL_CHECKS_PER_MINUTE, takeApiRate } from '../rateLimit.js';
import { findUserForVerification } from '../repository.js';

// userCredentialsVerify: another system asks whether a user's password is right (its own sign-in
// backed by ours). The same rules as signing in: a disabled or locked account is never valid, a
// wrong password counts towards the account's lockout, an unknown user costs the same time (a
// dummy hash is verified), and users outside the key's scope are answered as invalid.

export const userEndpoints = [
  defineEndpoint({
    route: verifyCredentialsRoute,
    scope: 'userCredentialsVerify',
    tag: 'Users',
    summary: "Verify a user's credentials",
    description: `At most ${CREDENTIAL_CHECKS_PER_MINUTE} checks a minute per key (429 with Retry-After beyond).`,
    answers: 'Whether the credentials are valid, and whose they are.',
    async handler({ body }, { deps, key }) {
      const { db, config } = deps;
      await takeApiRate(
        db,
        'api.credentials',
        `${key.configurationId}:${key.kid}`,
        CREDENTIAL_CHECKS_PER_MINUTE,
      );
      const user = await authRepo.findUserForSignin(db, body.userId);
      const passwordOk = await verifyPassword(user?.password_hash ?? null, body.password);
      const now = Date.now();
      const locked = user?.locked_until != null && user.locked_until.getTime() > now;
      // An account whose address was never confirmed cannot sign in, so it is never valid either.
      if (
        !user ||
        user.disabled ||
        locked ||
        user.email_confirmed_at === null ||
        !isWithinScope(user.scope, key.scopePath)
      )
        return { valid: false };
      if (!passwordOk) {
        await authRepo.recordUserFailure(
          db,
          user.id,
          config.signin.maxFailures,
          new Date(now + config.signin.lockMinutes * 60_000),
        );
        return { valid: false };
      }
      await authRepo.clearFailures(db, user.id);
      const found = await findUserForVerification(db, user.id);
      if (!found) return { valid: false };
      return {
        valid: true,
        user: { id: found.id, name: found.name, email: found.email, scope: found.scope },
      };
    },
  }),
];
