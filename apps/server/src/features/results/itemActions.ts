import type { DbOrTrx } from '../../db/database.js';
import { type ActionDefinition, type ActionRegistry, commitAction } from '../../http/actions.js';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { loadVisibleRequest } from '../requests/index.js';

// The actions of one result or invoice (POST /requests/{n}/results|invoices/{id}/actions/{action}),
// in the one action framework (http/actions.ts). Like the request actions, the request row is locked
// FOR UPDATE for the whole transaction, so two people acting on one item run one after the other
// and the second one meets the new state (409).

export interface ItemActionContext<Item> {
  deps: AppDeps;
  actor: Actor;
  request: RequestRow;
  item: Item;
}

export type ItemAction<Item, Input = unknown> = ActionDefinition<ItemActionContext<Item>, Input>;
export type ItemActions<Item> = ActionRegistry<ItemActionContext<Item>>;

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
  await commitAction(deps.db, target.registry, target.name, target.body, async (trx) => {
    const request = await loadVisibleRequest(trx, actor, target.requestNumber, { forUpdate: true });
    const item = await target.load(trx, request.request_number, target.itemId);
    if (!item) throw notFound();
    return { deps, actor, request, item };
  });
}
