import { fieldErrorsOf } from '@dossier/core';
import type { ZodType } from 'zod';
import type { AppDeps } from '../../app.js';
import type { DbOrTrx } from '../../db/database.js';
import { conflict, fieldsInvalid, forbidden, notFound } from '../../http/errors.js';
import type { Actor } from '../auth/actor.js';
import { loadVisibleRequest } from '../requests/access.js';
import type { ActionOffer } from '../requests/actions/registry.js';
import type { RequestRow } from '../requests/repository.js';

// The actions of one result or invoice (POST /requests/{n}/results|invoices/{id}/actions/{action}).
// Like the request actions: the request row is locked FOR UPDATE for the whole transaction, so two
// people acting on one item run one after the other and the second one meets the new state (409);
// the offer shown on the page and the check on commit are the same function.

export interface ItemActionContext<Item> {
  deps: AppDeps;
  actor: Actor;
  request: RequestRow;
  item: Item;
}

export interface ItemAction<Item, Input> {
  name: string;
  body: ZodType<Input>;
  offer(ctx: ItemActionContext<Item>): ActionOffer | Promise<ActionOffer>;
  run(trx: DbOrTrx, ctx: ItemActionContext<Item>, input: Input): Promise<void>;
}

export type ItemActions<Item> = Map<string, ItemAction<Item, unknown>>;

export function defineItemAction<Item, Input>(
  registry: ItemActions<Item>,
  action: ItemAction<Item, Input>,
): void {
  registry.set(action.name, action as ItemAction<Item, unknown>);
}

export async function offeredItemActions<Item>(
  registry: ItemActions<Item>,
  ctx: ItemActionContext<Item>,
): Promise<string[]> {
  const names: string[] = [];
  for (const action of registry.values())
    if ((await action.offer(ctx)) === 'offered') names.push(action.name);
  return names;
}

export async function runItemAction<Item>(
  deps: AppDeps,
  actor: Actor,
  target: {
    requestNumber: string;
    itemId: string;
    name: string;
    body: unknown;
    registry: ItemActions<Item>;
    load(trx: DbOrTrx, requestNumber: string, itemId: string): Promise<Item | undefined>;
  },
): Promise<void> {
  const action = target.registry.get(target.name);
  if (!action) throw notFound('No such action.');
  await deps.db.transaction().execute(async (trx) => {
    const request = await loadVisibleRequest(trx, actor, target.requestNumber, { forUpdate: true });
    const item = await target.load(trx, request.request_number, target.itemId);
    if (!item) throw notFound();
    const ctx = { deps, actor, request, item };
    const offer = await action.offer(ctx);
    if (offer === 'forbidden') throw forbidden();
    if (offer !== 'offered') throw conflict(offer.conflict);
    const parsed = action.body.safeParse(target.body ?? {});
    if (!parsed.success) throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
    await action.run(trx, ctx, parsed.data);
  });
}
