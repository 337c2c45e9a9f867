import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { createNotification } from '../notifications/index.js';
import { rootAdministrators } from './repository.js';

// A payee's bank account and email decide where money and remittance advice go: a change of either
// is how a payment is redirected. Such a change is kept in the payee's history with before and
// after (as every change is), and announced to every root administrator, who can check it.

const SENSITIVE: Record<string, string> = { bankAccount: 'bank account', email: 'email' };

export function sensitiveFields(changes: Record<string, unknown>): string[] {
  return Object.keys(SENSITIVE).filter((field) => field in changes);
}

export async function announcePayeeChange(
  db: DbOrTrx,
  live: LiveHub | undefined,
  actor: Actor,
  payee: { id: string; name: string },
  fields: string[],
): Promise<void> {
  if (!live || fields.length === 0) return;
  const what = fields.map((f) => SENSITIVE[f]).join(' and ');
  for (const userId of await rootAdministrators(db)) {
    if (userId === actor.id) continue;
    await createNotification(db, live, {
      userId,
      type: 'payeeChanged',
      target: `/admin/payees/edit/${payee.id}`,
      text: `${actor.name} changed the ${what} of the payee ${payee.name}.`,
      createdBy: actor,
    });
  }
}
