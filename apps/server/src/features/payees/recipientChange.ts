import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import type { LiveHub } from '../../live/hub.js';
import { createNotification } from '../notifications/index.js';
import * as repo from './repository.js';

// A recipient's invoice naming a directory payee with other payment details (issue 34): never
// applied silently, it goes the way an administrator's change of them goes. The entry changes, its
// history keeps before and after (with the request it came from), every root administrator is told,
// and whoever pays the payee next is shown the recent change (recentSensitiveChanges).

const NAMES: Record<'bankAccount' | 'email', string> = { bankAccount: 'bank account', email: 'email' };

export async function changePayeeFromRecipient(
  trx: Trx,
  live: LiveHub | undefined,
  payeeId: string,
  given: { bankAccount?: string | undefined; email?: string | undefined },
  requestNumber: string,
): Promise<string[]> {
  const current = await repo.findPayee(trx, payeeId, true);
  if (!current) return [];
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of ['bankAccount', 'email'] as const) {
    const value = given[field]?.trim();
    if (value && value !== (current.data[field] ?? ''))
      changes[field] = { from: current.data[field], to: value };
  }
  const fields = Object.keys(changes) as (keyof typeof NAMES)[];
  if (fields.length === 0) return [];
  const data = { ...current.data, ...Object.fromEntries(fields.map((f) => [f, changes[f]?.to])) };
  await repo.updatePayee(trx, payeeId, current.version, data as repo.PayeeData, null);
  await recordEvent(trx, {
    type: 'payeeUpdated',
    aggregateType: 'payee',
    aggregateId: payeeId,
    actor: null,
    payload: { changes, source: 'recipientPage', requestNumber },
  });
  const what = fields.map((f) => NAMES[f]).join(' and ');
  for (const userId of await repo.rootAdministrators(trx))
    await createNotification(trx, live, {
      userId,
      type: 'payeeChanged',
      target: `/admin/payees/edit/${payeeId}`,
      text: `The recipient of request ${requestNumber} changed the ${what} of the payee ${current.data.name} on the recipient's page.`,
      createdBy: null,
    });
  return fields.map((f) => NAMES[f]);
}
