import { randomBytes } from 'node:crypto';
import type { DbOrTrx } from '../../db/database.js';
import { enqueueMail } from '../../mail/outbox.js';
import { tokenHash } from '../account/confirmation.js';
import { RESET_PURPOSE } from '../passwordReset/service.js';
import { insertToken } from '../users/repository.js';
import { renderMail } from './render.js';

// The activation mail of a user an administrator created (template newUserActivation): a one-time
// link to /set-password, where the new user chooses a password. It is a password-reset token with a
// longer life, so the set-password page and its rules serve both.

const ACTIVATION_DAYS = 7;

export async function sendActivationMail(
  trx: DbOrTrx,
  user: { id: string; name: string; email: string; phone: string; scope: string },
  input: { baseUrl: string; ip: string | null },
): Promise<void> {
  const token = randomBytes(32).toString('base64url');
  await insertToken(trx, {
    id: tokenHash(token),
    userId: user.id,
    purpose: RESET_PURPOSE,
    expiresAt: new Date(Date.now() + ACTIVATION_DAYS * 86_400_000),
    ip: input.ip,
  });
  const activationUrl = `${input.baseUrl}/set-password?token=${encodeURIComponent(token)}`;
  const data = {
    product: 'Dossier',
    user: { id: user.id, name: user.name, email: user.email, phone: user.phone, activationUrl },
  };
  const mail = await renderMail(trx, user.scope, 'newUserActivation', data, {
    subject: 'Activate your account',
    body: [
      'Welcome ${user.name}.',
      'Your user id is ${user.id}. Choose your password to activate your account: ${user.activationUrl link}',
      `The link is valid for ${ACTIVATION_DAYS} days.`,
    ],
  });
  await enqueueMail(trx, { to: user.email, ...mail });
}
