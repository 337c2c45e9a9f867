import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { createNotification } from '../notifications/index.js';

// A payee's bank account and email decide where money and remittance advice go: a change of either
// is how a payment is redirected. Such a change is kept in the payee's history with before and
// after (as every change is), and announced to every root administrator, who can check it.

const SENSITIVE: Record<string, string> = { bankAccount: 'bank account', email: 'email' };

export function sensitiveFields(changes: Record<string, unknown>): string[] {
  return Object.keys(SENSITIVE).filter((field) => field in changes);
}

/** Enabled users holding the administrator role at the root. */
async function rootAdministrators(db: DbOrTrx): Promise<string[]> {
  const rows = await db
    .selectFrom('user_roles as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select('u.id')
    .where('r.role', '=', 'c:roles:admin')
    .where('r.scope', '=', '/')
    .where('u.disabled', '=', false)
    .execute();
  return [...new Set(rows.map((r) => r.id))];
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

/** How long a change of payment details is pointed out to whoever pays the payee. */
export const RECENT_CHANGE_DAYS = 30;

/** Per payee id, when its bank account or email last changed, if within RECENT_CHANGE_DAYS. */
export async function recentSensitiveChanges(db: DbOrTrx, payeeIds: string[]): Promise<Map<string, Date>> {
  if (payeeIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('events')
    .select(['aggregate_id', (eb) => eb.fn.max('created_at').as('at')])
    .where('aggregate_type', '=', 'payee')
    .where('type', '=', 'payeeUpdated')
    .where('aggregate_id', 'in', payeeIds)
    .where('created_at', '>', sql<Date>`now() - make_interval(days => ${RECENT_CHANGE_DAYS})`)
    .where(sql<boolean>`(payload -> 'changes') ?| array['bankAccount', 'email']`)
    .groupBy('aggregate_id')
    .execute();
  return new Map(rows.map((r) => [r.aggregate_id, new Date(r.at)]));
}
