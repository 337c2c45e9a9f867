import { z } from 'zod';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import { actionRegistry } from '../../http/actions.js';
import { conflict, fieldsInvalid } from '../../http/errors.js';
import { getRequestSettings } from '../configuration/index.js';
import { canHandleRequest, touchRequest } from '../requests/index.js';
import { publishRequestWebhook } from '../webhooks/index.js';
import { closeRequestAutomatically } from './autoClose.js';
import type { ItemAction, ItemActionContext, ItemActions } from './itemActions.js';
import {
  countResultsAwaitingQa,
  markQualityAssured,
  markResultDiscarded,
  type ResultRow,
} from './repository.js';

// The actions of the result page (Result page): qualityAssure with the item types the result
// covers, and discard.

type Ctx = ItemActionContext<ResultRow>;
const define = <Input>(action: ItemAction<ResultRow, Input>) => action;

/** The item types of the request, as the submitter chose them (names filled in when known). */
export function requestItemTypes(request: Ctx['request']): { id: string; name: string }[] {
  return (request.content?.itemTypes ?? []).map((t) => ({ id: t.id, name: t.name || t.id }));
}

const qualityAssure = define({
  name: 'qualityAssure',
  body: z.object({ itemTypes: z.array(z.string().max(200)).max(50).default([]) }),
  offer({ actor, request, item }: Ctx) {
    if (!canHandleRequest(actor, request)) return 'forbidden';
    if (item.discarded_at) return { conflict: 'The result was discarded.' };
    if (item.quality_assured_at) return { conflict: 'The result is already quality assured.' };
    if (item.quality_assurance_skipped) return { conflict: 'Quality assurance is skipped for this result.' };
    return 'offered';
  },
  async run(trx: Trx, { deps, actor, request, item }: Ctx, input) {
    const offered = requestItemTypes(request);
    const unknown = input.itemTypes.filter((id) => !offered.some((t) => t.id === id));
    if (unknown.length > 0)
      throw fieldsInvalid({
        itemTypes: 'Choose item types of this request only.',
      });
    if (offered.length > 0 && input.itemTypes.length === 0)
      throw fieldsInvalid({
        itemTypes: 'Choose the item types this result covers.',
      });
    const covered = offered.filter((t) => input.itemTypes.includes(t.id));
    if (!(await markQualityAssured(trx, item.id, actor.id, covered)))
      throw conflict('The result is already quality assured.');
    const n = request.request_number;
    const names = covered.map((t) => t.name).join(', ');
    await recordEvent(trx, {
      type: 'request.resultQualityAssured',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: {
        summary: `Quality assured a result${names ? ` covering ${names}` : ''}.`,
        resultId: item.id,
      },
    });
    await touchRequest(trx, n, actor.id);
    await publishRequestWebhook(trx, deps, request, 'resultQualityAssured', {
      requestNumber: n,
      resultId: item.id,
      itemTypes: covered.map((t) => t.id),
    });
    const settings = await getRequestSettings(trx, request.scope);
    if (
      settings?.autoCloseRequestWhenAllResultsAreQualityAssured &&
      request.status !== 'closed' &&
      (await countResultsAwaitingQa(trx, n)) === 0
    )
      await closeRequestAutomatically(trx, deps, actor, request);
  },
});

const discard = define({
  name: 'discard',
  body: z.object({}).passthrough(),
  offer({ actor, request, item }: Ctx) {
    if (!canHandleRequest(actor, request)) return 'forbidden';
    if (item.discarded_at) return { conflict: 'The result was already discarded.' };
    return 'offered';
  },
  async run(trx: Trx, { deps, actor, request, item }: Ctx) {
    if (!(await markResultDiscarded(trx, item.id, actor.id)))
      throw conflict('The result was already discarded.');
    const n = request.request_number;
    await recordEvent(trx, {
      type: 'request.resultDiscarded',
      aggregateType: 'request',
      aggregateId: n,
      actor: actor.id,
      payload: { summary: 'Discarded a result.', resultId: item.id },
    });
    await touchRequest(trx, n, actor.id);
    await publishRequestWebhook(trx, deps, request, 'resultDiscarded', {
      requestNumber: n,
      resultId: item.id,
    });
  },
});

export const resultActions: ItemActions<ResultRow> = actionRegistry([qualityAssure, discard]);
