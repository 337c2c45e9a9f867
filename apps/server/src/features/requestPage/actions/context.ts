import type { ActionDefinition, ActionOutcome } from '../../../http/actions.js';
import type { AppDeps } from '../../../http/deps.js';
import type { Actor } from '../../auth/index.js';
import type { RequestRow } from '../../requests/index.js';

// What an action of the request page (POST /requests/{n}/actions/{action}) works with. Each action
// lives in its own file as a definition; index.ts lists them all.

export interface RequestActionContext {
  deps: AppDeps;
  actor: Actor;
  /** The request row, locked FOR UPDATE when the action runs. */
  request: RequestRow;
}

export type RequestAction<Input = unknown, Outcome extends ActionOutcome = ActionOutcome> = ActionDefinition<
  RequestActionContext,
  Input,
  Outcome
>;

/** Types a request action's definition: its input from its body schema, its outcome from its handler. */
export const defineRequestAction = <Input, Outcome extends ActionOutcome>(
  action: RequestAction<Input, Outcome>,
): RequestAction<Input, Outcome> => action;
