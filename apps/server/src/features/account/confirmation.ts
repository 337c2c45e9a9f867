import { randomBytes } from 'node:crypto';
import type { AccountConfirmedView } from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db, Trx } from '../../db/database.js';
import { enqueueMail, escapeHtml } from '../../mail/outbox.js';
import { insertToken, tokenHash, useToken } from '../accountTokens/index.js';
import { usersRepository as repo } from '../users/index.js';

// Email confirmation: a one-time link mailed (through the outbox) to a registered account, and to
// an account whose user changed its address. Only the SHA-256 of the token is stored.

export const CONFIRM_PURPOSE = 'confirmEmail';
const CONFIRM_HOURS = 72;

export async function sendConfirmation(
  trx: Trx,
  input: { userId: string; name: string; email: string; baseUrl: string; ip: string },
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await insertToken(trx, {
    id: tokenHash(token),
    userId: input.userId,
    purpose: CONFIRM_PURPOSE,
    expiresAt: new Date(Date.now() + CONFIRM_HOURS * 3_600_000),
    ip: input.ip,
  });
  const link = `${input.baseUrl}/account/confirm?token=${encodeURIComponent(token)}`;
  // The user's scope owns the mail (the admin outbox lists it there).
  const user = await repo.findUser(trx, input.userId);
  await enqueueMail(trx, {
    to: input.email,
    scope: user?.scope ?? '/',
    subject: 'Confirm your email address',
    text: `Hello ${input.name},\n\nplease confirm your email address for the account ${input.userId}:\n${link}\n\nThe link is valid for ${CONFIRM_HOURS} hours.`,
    html: `<p>Hello ${escapeHtml(input.name)},</p><p>please confirm your email address for the account <b>${escapeHtml(input.userId)}</b>:</p><p><a href="${escapeHtml(link)}">Confirm my email address</a></p><p>The link is valid for ${CONFIRM_HOURS} hours.</p>`,
  });
}

/**
 * Someone registered with an address that already has an account. The page answers as if the
 * account was made (so registration does not tell who has an account); the owner of the address is
 * told what happened instead.
 */
export async function sendAlreadyRegistered(
  trx: Trx,
  input: { ownerId: string; email: string; baseUrl: string },
): Promise<void> {
  const owner = await repo.findUser(trx, input.ownerId);
  const reset = `${input.baseUrl}/forgot-password`;
  await enqueueMail(trx, {
    to: owner?.email ?? input.email,
    scope: owner?.scope ?? '/',
    subject: 'You already have an account',
    text: `Hello,

someone asked to register a new account with this email address, which already belongs to the account ${input.ownerId}. No new account was made.

If it was you, sign in as ${input.ownerId}, or set a new password here: ${reset}
If it was not you, you need do nothing.`,
    html: `<p>Hello,</p><p>someone asked to register a new account with this email address, which already belongs to the account <b>${escapeHtml(input.ownerId)}</b>. No new account was made.</p><p>If it was you, sign in as ${escapeHtml(input.ownerId)}, or <a href="${escapeHtml(reset)}">set a new password</a>. If it was not you, you need do nothing.</p>`,
  });
}

export async function confirmAccountEmail(db: Db, token: string): Promise<AccountConfirmedView> {
  return db.transaction().execute(async (trx) => {
    const userId = await useToken(trx, tokenHash(token), CONFIRM_PURPOSE);
    if (!userId) {
      // Opened again after it worked: the address is confirmed, and the page says so.
      const used = await repo.userOfUsedToken(trx, tokenHash(token), CONFIRM_PURPOSE);
      if (used?.email_confirmed_at && !used.pending_email)
        return {
          $type: 'accountConfirmed',
          title: 'Email Address Confirmed',
          confirmed: true,
          alreadyConfirmed: true,
          userId: used.id,
        };
      return {
        $type: 'accountConfirmed',
        title: 'Email Address Not Confirmed',
        confirmed: false,
        userId: null,
      };
    }
    const before = await repo.findUser(trx, userId, true);
    const next = before?.pending_email;
    // The address may have been taken by another account since the link was sent.
    const owner = next ? await repo.emailOwner(trx, next) : undefined;
    if (owner !== undefined && owner !== userId)
      return {
        $type: 'accountConfirmed',
        title: 'Email Address Not Confirmed',
        confirmed: false,
        userId: null,
      };
    await repo.confirmEmail(trx, userId);
    await recordEvent(trx, {
      type: 'emailConfirmed',
      aggregateType: 'user',
      aggregateId: userId,
      actor: userId,
      payload: next && before ? { changes: { email: { from: before.email, to: next } } } : {},
    });
    return { $type: 'accountConfirmed', title: 'Email Address Confirmed', confirmed: true, userId };
  });
}
