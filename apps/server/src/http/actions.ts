import { fieldErrorsOf } from '@dossier/core';
import type { ZodType } from 'zod';
import type { Db, Trx } from '../db/database.js';
import { conflict, fieldsInvalid, forbidden, notFound } from './errors.js';

// The one action framework (POST …/actions/{action}: the request page's actions, a result's, an
// invoice's, the public API's payment confirmation). An action is a definition: its name, its body
// schema, its offer (who may, in which state) and its handler. Each feature lists its definitions in
// one module (actionRegistry([...])), so what exists is read in one place and nothing registers
// itself on import. The page shows the actions whose offer is 'offered'; a commit checks the same
// offer again under the caller's row lock, so what was shown and what is allowed cannot differ.

/**
 * Whether the action applies: `offered` shows it; `forbidden` (no permission in the scope) answers
 * 403; `conflict` (the state no longer allows it: closed, already paid) answers 409.
 */
export type ActionOffer = 'offered' | 'forbidden' | { conflict: string };

/** What a handler answers: the ids of what it made, or nothing (an `async` handler without `return`). */
// biome-ignore lint/suspicious/noConfusingVoidType: a handler that makes nothing returns Promise<void>
export type MadeByAction = ActionOutcome | undefined | void;

export interface ActionDefinition<Ctx, Input = unknown, Outcome extends MadeByAction = MadeByAction> {
  name: string;
  /** Parsed by the framework after the offer holds; the handler gets the parsed value only. */
  body: ZodType<Input>;
  offer(ctx: Ctx): ActionOffer | Promise<ActionOffer>;
  /**
   * Runs in the commit's transaction, after the offer and the body; throw an HttpError to refuse.
   * Answers the ids of what it made, if any.
   */
  run(trx: Trx, ctx: Ctx, input: Input): Promise<Outcome>;
}

/** What an action made, by id (`{ taskId }`); the route answers it beside the refreshed view. */
export type ActionOutcome = Record<string, unknown>;

export type ActionRegistry<Ctx> = ReadonlyMap<string, ActionDefinition<Ctx>>;

/** The actions of one kind of thing, in the order the page offers them. */
export function actionRegistry<Ctx>(actions: readonly ActionDefinition<Ctx>[]): ActionRegistry<Ctx> {
  const registry = new Map<string, ActionDefinition<Ctx>>();
  for (const action of actions) {
    if (registry.has(action.name)) throw new Error(`action ${action.name} is defined twice`);
    registry.set(action.name, action);
  }
  return registry;
}

/** The names of the actions offered in `ctx`, in the registry's order. */
export async function offeredActionNames<Ctx>(registry: ActionRegistry<Ctx>, ctx: Ctx): Promise<string[]> {
  const names: string[] = [];
  for (const action of registry.values())
    if ((await action.offer(ctx)) === 'offered') names.push(action.name);
  return names;
}

/**
 * Commits one action in one transaction: `lock` loads (and locks) what the action works on, the
 * offer is checked again (403/409), the body parsed (400 with a message per field), the handler
 * run. Answers what the handler answers (the ids of what it made).
 */
export async function commitAction<Ctx>(
  db: Db,
  registry: ActionRegistry<Ctx>,
  name: string,
  body: unknown,
  lock: (trx: Trx) => Promise<Ctx>,
): Promise<ActionOutcome> {
  const action = registry.get(name);
  if (!action) throw notFound('No such action.');
  return db.transaction().execute(async (trx) => {
    const ctx = await lock(trx);
    const offer = await action.offer(ctx);
    if (offer === 'forbidden') throw forbidden();
    if (offer !== 'offered') throw conflict(offer.conflict);
    const parsed = action.body.safeParse(body ?? {});
    if (!parsed.success) throw fieldsInvalid(fieldErrorsOf(parsed.error.issues));
    return (await action.run(trx, ctx, parsed.data)) ?? {};
  });
}
