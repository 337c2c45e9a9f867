import type { ZodType } from 'zod';
import type { AppDeps } from '../../../app.js';
import type { Trx } from '../../../db/database.js';
import type { Actor } from '../../auth/actor.js';
import type { RequestRow } from '../repository.js';

// The actions of the request page (POST /requests/{n}/actions/{action}). Each action lives in its
// own file and registers itself here; the route and the request view only go through this registry,
// so the offer shown in the page and the check made on commit are the same function.

export interface RequestActionContext {
  deps: AppDeps;
  actor: Actor;
  /** The request row, locked FOR UPDATE when the action runs. */
  request: RequestRow;
}

/**
 * Whether the action applies: `offered` shows it; `forbidden` (no permission in the request's
 * scope) answers 403; `conflict` (the state no longer allows it: closed, already issued) answers 409.
 */
export type ActionOffer = 'offered' | 'forbidden' | { conflict: string };

export interface RequestAction<Input> {
  name: string;
  body: ZodType<Input>;
  offer(ctx: RequestActionContext): ActionOffer | Promise<ActionOffer>;
  /** Runs inside the transaction that holds the request's row lock; throw an HttpError to refuse. */
  run(trx: Trx, ctx: RequestActionContext, input: Input): Promise<unknown>;
}

const actions = new Map<string, RequestAction<unknown>>();

export function registerRequestAction<Input>(action: RequestAction<Input>): void {
  actions.set(action.name, action as RequestAction<unknown>);
}

export function findRequestAction(name: string): RequestAction<unknown> | undefined {
  return actions.get(name);
}

/** The names of the actions offered to the actor on this request, in registration order. */
export async function offeredActions(ctx: RequestActionContext): Promise<string[]> {
  const names: string[] = [];
  for (const action of actions.values()) if ((await action.offer(ctx)) === 'offered') names.push(action.name);
  return names;
}
