import { checkPassword } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { badRequest, HttpError } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import {
  type AfterPassword,
  afterRightPassword,
  authenticate,
  endUserSessions,
  hashPassword,
  type SigninInput,
  signinFailureMessage,
} from '../auth/index.js';
import { getPasswordPolicy } from '../configuration/index.js';
import { usersRepository as repo } from '../users/index.js';

// The change-password step of a sign-in whose account is flagged
// passwordMustBeChangedAtNextLogin: the user proves the current password, sets a new one meeting
// its scope's policy, and is signed in, through the same steps as the sign-in page (issue 35): a
// user with a second factor gives its code next, one whose roles require one enrols it first.

export async function changePasswordAndSignIn(
  db: Db,
  config: Config,
  input: SigninInput & { newPassword: string },
  live?: LiveHub,
): Promise<AfterPassword> {
  const checked = await authenticate(db, config, input, { allowPasswordChange: true });
  if (!checked.ok) {
    const status =
      checked.failure === 'tooMany'
        ? 429
        : checked.failure === 'invalid' || checked.failure === 'locked'
          ? 401
          : 403;
    const wait = checked.retryAfterSeconds;
    const headers = wait ? { 'retry-after': String(wait) } : undefined;
    throw new HttpError(
      status,
      signinFailureMessage(checked.failure, wait),
      checked.failure,
      undefined,
      headers,
    );
  }
  const problem = checkPassword(input.newPassword, await getPasswordPolicy(db, checked.scope));
  if (problem) throw badRequest(problem, { newPassword: problem });
  if (input.newPassword === input.password) {
    const message = 'The new password must differ from the current one.';
    throw badRequest(message, { newPassword: message });
  }
  return db.transaction().execute(async (trx) => {
    const row = await repo.findUser(trx, checked.userId, true);
    if (!row) throw badRequest('No such user.');
    await repo.updateUser(trx, row.id, row.version, {
      password_hash: await hashPassword(input.newPassword),
      password_must_change: false,
    });
    await recordEvent(trx, {
      type: 'passwordChanged',
      aggregateType: 'user',
      aggregateId: row.id,
      actor: row.id,
      payload: {
        changes: {
          password: { from: '(hidden)', to: '(changed)' },
          passwordMustBeChangedAtNextLogin: { from: true, to: false },
        },
      },
    });
    await endUserSessions(trx, live, row.id);
    return afterRightPassword(trx, config, row.id, input);
  });
}
