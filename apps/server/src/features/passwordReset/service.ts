import { randomBytes } from 'node:crypto';
import {
  checkPassword,
  checkPasswordRepeat,
  type PasswordChanged,
  type PasswordResetRequested,
  renderRichTextTemplate,
  type SetPasswordView,
  tryAgainIn,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { takeRate, takeRateOrWait } from '../../db/rateLimit.js';
import { badRequest, tooManyRequests } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { enqueueMail } from '../../mail/outbox.js';
import { richTextToHtml, richTextToText } from '../../mail/richText.js';
import { insertToken, retireTokens, tokenHash, useToken } from '../accountTokens/index.js';
import { endUserSessions, hashPassword } from '../auth/index.js';
import { getEffectiveTemplate, getPasswordPolicy } from '../configuration/index.js';
import * as repo from './repository.js';

// Forgot password and set password. The answer to a reset request never tells whether the address
// belongs to anybody; the link is one-time, valid for two hours, and only its hash is stored.

export const RESET_PURPOSE = 'resetPassword';
export const LINK_EXPIRED = 'The link has expired.';
const RESET_HOURS = 2;
// Limits in minutes, not an hour (issue 35 item 5): per network address, roomy enough for an office
// behind one address, and per account (the typed email), so one mailbox is not flooded.
const RESET_WINDOW_SECONDS = 15 * 60;
const REQUESTS_PER_NETWORK_ADDRESS = 20;
const REQUESTS_PER_ACCOUNT = 3;

/**
 * A one-time /set-password link for the user (only the SHA-256 of its token is stored). Password
 * reset and the activation of a new user both use it, so one page and its rules serve both.
 */
export async function issueSetPasswordLink(
  trx: DbOrTrx,
  input: { userId: string; validForMs: number; ip: string | null; baseUrl: string },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  // One live link per user: a newer one retires those mailed before it.
  await retireTokens(trx, input.userId, RESET_PURPOSE);
  await insertToken(trx, {
    id: tokenHash(token),
    userId: input.userId,
    purpose: RESET_PURPOSE,
    expiresAt: new Date(Date.now() + input.validForMs),
    ip: input.ip,
  });
  return `${input.baseUrl}/set-password?token=${encodeURIComponent(token)}`;
}

/** The queue that mails reset links: the request only queues, so it costs the same either way. */
export const RESET_QUEUE = 'passwordReset.mail';

export interface ResetRequest {
  email: string;
  ip: string;
  baseUrl: string;
  /** Passwords are off but for this (break-glass) account: a link is mailed to it alone. */
  onlyUserId?: string;
}

/**
 * Answers the same for every address, in the same time: the request is queued (one insert) and a
 * job looks the address up and mails the link. Without a job queue (tests, tools) it mails here.
 */
export async function requestPasswordReset(
  db: Db,
  jobs: JobQueue | undefined,
  input: ResetRequest,
): Promise<PasswordResetRequested> {
  const fromAddress = await takeRateOrWait(
    db,
    'passwordReset',
    input.ip,
    REQUESTS_PER_NETWORK_ADDRESS,
    RESET_WINDOW_SECONDS,
  );
  if (fromAddress) {
    throw tooManyRequests(
      `Too many password reset requests from your network address. ${tryAgainIn(fromAddress)}`,
      fromAddress,
    );
  }
  // Keyed on the address as typed, known or not, so the refusal does not tell whether it is anyone's.
  const email = input.email.trim().toLowerCase();
  const forAccount = await takeRateOrWait(
    db,
    'passwordResetFor',
    email,
    REQUESTS_PER_ACCOUNT,
    RESET_WINDOW_SECONDS,
  );
  if (forAccount) {
    throw tooManyRequests(
      `Too many password reset requests for this email address. ${tryAgainIn(forAccount)}`,
      forAccount,
    );
  }
  const request: ResetRequest = {
    email: input.email.trim(),
    ip: input.ip,
    baseUrl: input.baseUrl,
    ...(input.onlyUserId === undefined ? {} : { onlyUserId: input.onlyUserId }),
  };
  if (jobs) await jobs.send(db, RESET_QUEUE, request);
  else await mailResetLink(db, request);
  return { $type: 'passwordResetRequested', email: input.email.trim() };
}

/** The job: a link for the account of the address, if there is one that may sign in. */
export async function mailResetLink(db: Db, input: ResetRequest): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await repo.findUserForReset(trx, input.email);
    if (!user || user.disabled) return;
    if (input.onlyUserId !== undefined && user.id !== input.onlyUserId) return;
    // Per mailbox too (an account's address typed in other ways), so that it cannot be flooded.
    if (
      !(await takeRate(
        trx,
        'passwordResetTo',
        user.email.toLowerCase(),
        REQUESTS_PER_ACCOUNT,
        RESET_WINDOW_SECONDS,
      ))
    )
      return;
    const resetPasswordUrl = await issueSetPasswordLink(trx, {
      userId: user.id,
      validForMs: RESET_HOURS * 3_600_000,
      ip: input.ip,
      baseUrl: input.baseUrl,
    });
    // The mail belongs to the user's scope: administrators of that scope see it in the outbox.
    await enqueueMail(trx, { ...(await resetMail(trx, user, resetPasswordUrl)), scope: user.scope });
  });
}

/** The mail, from the scope's resetPassword template (the built-in text when there is none). */
async function resetMail(
  db: DbOrTrx,
  user: { id: string; name: string; email: string; phone: string; scope: string },
  resetPasswordUrl: string,
) {
  const subject = 'Reset your password';
  const template = await getEffectiveTemplate(db, user.scope, 'resetPassword');
  const data = {
    user: { id: user.id, name: user.name, email: user.email, phone: user.phone, resetPasswordUrl },
  };
  if (!template?.data.body) {
    const text = `Hello ${user.name},\n\nreset the password of ${user.id}: ${resetPasswordUrl}\n\nThe link is valid for ${RESET_HOURS} hours.`;
    return { to: user.email, subject, text };
  }
  const body = renderRichTextTemplate(template.data.body, data);
  return { to: user.email, subject, text: richTextToText(body), html: richTextToHtml(body) };
}

export async function getSetPasswordView(db: DbOrTrx, token: string | undefined): Promise<SetPasswordView> {
  const user = token ? await repo.userOfValidToken(db, tokenHash(token), RESET_PURPOSE) : undefined;
  if (!user || user.disabled)
    return { $type: 'setPassword', title: 'Set Password', userId: null, error: LINK_EXPIRED };
  return {
    $type: 'setPassword',
    title: user.firstPassword ? 'Activate Your Account' : 'Set Password',
    userId: user.id,
    firstPassword: user.firstPassword,
    passwordPolicy: await getPasswordPolicy(db, user.scope),
    // The policy asks for a repeat whenever it sets any rule; a repeat is always safer to type.
    requireRepeat: true,
  };
}

export async function setPasswordWithToken(
  db: Db,
  input: { token: string; password: string; repeat?: string | undefined },
  live?: LiveHub,
): Promise<PasswordChanged> {
  return db.transaction().execute(async (trx) => {
    const user = await repo.userOfValidToken(trx, tokenHash(input.token), RESET_PURPOSE);
    if (!user || user.disabled) throw badRequest(LINK_EXPIRED, { token: LINK_EXPIRED });
    const problem = checkPassword(input.password, await getPasswordPolicy(trx, user.scope));
    if (problem) throw badRequest(problem, { password: problem });
    if (input.repeat !== undefined) {
      const mismatch = checkPasswordRepeat(input.password, input.repeat);
      if (mismatch) throw badRequest(mismatch, { repeat: mismatch });
    }
    // The update takes the token atomically: of parallel uses, only one finds it unused.
    if (!(await useToken(trx, tokenHash(input.token), RESET_PURPOSE)))
      throw badRequest(LINK_EXPIRED, { token: LINK_EXPIRED });
    await retireTokens(trx, user.id, RESET_PURPOSE);
    await repo.replacePassword(trx, user.id, await hashPassword(input.password));
    await endUserSessions(trx, live, user.id);
    await recordEvent(trx, {
      type: 'passwordReset',
      aggregateType: 'user',
      aggregateId: user.id,
      actor: user.id,
      payload: {},
    });
    return user.firstPassword
      ? { $type: 'passwordChanged', title: 'Account Activated', userId: user.id, firstPassword: true }
      : { $type: 'passwordChanged', title: 'Password Changed', userId: user.id, firstPassword: false };
  });
}
