import type { Trx } from '../../db/database.js';
import { enqueueMail } from '../../mail/outbox.js';
import { issueSetPasswordLink } from '../passwordReset/index.js';
import { renderMail } from './render.js';

// The activation mail of a user an administrator created (template newUserActivation): a one-time
// link to /set-password, where the new user chooses a password: a password-reset link with a
// longer life.

const ACTIVATION_DAYS = 7;

export async function sendActivationMail(
  trx: Trx,
  user: { id: string; name: string; email: string; phone: string; scope: string },
  input: { baseUrl: string; ip: string | null },
): Promise<void> {
  const activationUrl = await issueSetPasswordLink(trx, {
    userId: user.id,
    validForMs: ACTIVATION_DAYS * 86_400_000,
    ip: input.ip,
    baseUrl: input.baseUrl,
  });
  const data = {
    product: 'Dossier',
    user: { id: user.id, name: user.name, email: user.email, phone: user.phone, activationUrl },
  };
  const mail = await renderMail(
    trx,
    user.scope,
    'newUserActivation',
    data,
    {
      subject: 'Activate your account',
      body: [
        'Welcome ${user.name}.',
        'Your user id is ${user.id}. Choose your password to activate your account: ${user.activationUrl link}',
        `The link is valid for ${ACTIVATION_DAYS} days.`,
      ],
    },
    input.baseUrl,
  );
  // The mail belongs to the user's scope: administrators of that scope see it in the outbox.
  await enqueueMail(trx, { to: user.email, ...mail, scope: user.scope });
}
