import { recordEvent } from '../../audit/events.js';
import type { Db } from '../../db/database.js';
import { enqueueMail } from '../../mail/outbox.js';
import type { SsoConfig } from './client.js';
import * as repo from './repository.js';

// Break-glass (our addition, issue 32): with SSO_PASSWORD_HANDLING=false every password is refused,
// so an operator who turns passwords off before an administrator is linked to the provider, or whose
// provider is down, would have no way in. SSO_BREAK_GLASS_USER names one local account that may still
// sign in with a password (and ask for a reset link). Each such sign-in is written to that user's
// history and mailed to every administrator of the whole service, so it cannot pass unnoticed.

/** Whether the user id (lower case) is the break-glass account of a configuration with passwords off. */
export function isBreakGlassUser(sso: SsoConfig, userId: string): boolean {
  return !sso.passwordHandling && sso.breakGlassUser !== undefined && sso.breakGlassUser === userId;
}

export const BREAK_GLASS_SUBJECT = 'Break-glass sign-in with a password';

/** After a password sign-in while passwords are off (only the break-glass account gets this far). */
export async function recordBreakGlassSignIn(
  db: Db,
  sso: SsoConfig,
  userId: string,
  client: { ip: string; userAgent: string | null },
): Promise<void> {
  if (sso.passwordHandling) return;
  const at = new Date();
  await db.transaction().execute(async (trx) => {
    await recordEvent(trx, {
      type: 'breakGlassSignIn',
      aggregateType: 'user',
      aggregateId: userId,
      actor: userId,
      payload: {
        summary: `Signed in with a password as the break-glass account (SSO_BREAK_GLASS_USER) from ${client.ip}, while single sign-on is required.`,
        ip: client.ip,
        userAgent: client.userAgent,
      },
    });
    for (const admin of await repo.findServiceAdministrators(trx)) {
      await enqueueMail(trx, {
        to: admin.email,
        scope: '/',
        subject: `${BREAK_GLASS_SUBJECT}: ${userId}`,
        text: [
          `Hello ${admin.name},`,
          '',
          `the break-glass account ${userId} signed in with a password at ${at.toISOString()} from ${client.ip}.`,
          'Single sign-on is required of everybody else (SSO_PASSWORD_HANDLING=false); this account may use',
          'a password only because SSO_BREAK_GLASS_USER names it. If this was not expected, disable the',
          'account or change its password, and check its history.',
        ].join('\n'),
      });
    }
  });
}
