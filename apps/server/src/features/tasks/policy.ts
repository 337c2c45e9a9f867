import { isSenderTaskType } from '@dossier/core';
import { type Actor, mayAtScope } from '../auth/index.js';

// Who may move a task by hand (issue 22 item 5). Every route first needs the actor to work the
// task at all (actions.ts: a handler of its request, its assignee, or for an inbox message's task
// the inbox permission in its scope); then:
// - Claim: the actor must be a candidate of the automatic assignment for the task (trained and
//   active for its type, a handling role covering its scope, on the line of its assign scope).
// - Assign to a named user, and list whom (the picker): a handler of the task's request, or a
//   manager (task:skills) at or above the task's scope. Managers keep the team's skills, so they
//   also spread its work; they hold no request:handle, so they are let in here explicitly. The
//   chosen user must be a candidate too, so a hand-made choice never breaks the assignment rules.
// - Release: only the assignee hands a task back.
// Completed tasks and the sender's own tasks (never assigned to staff) are moved by nobody.

interface TaskFacts {
  type: string;
  scope: string;
  assigned_to: string | null;
  completed_at: Date | null;
}

/** May the actor give the task to someone (not only to itself)? `canHandle`: it handles the request. */
export function mayAssignTask(actor: Actor, scope: string, canHandle: boolean): boolean {
  return canHandle || mayAtScope(actor, 'task:skills', scope);
}

/** May the task be moved by hand at all? */
export function isMovable(task: Pick<TaskFacts, 'type' | 'completed_at'>): boolean {
  return task.completed_at === null && !isSenderTaskType(task.type);
}

/**
 * The offers of the hand-over controls on a task item. Claim is offered to any handler for a task
 * not already theirs; whether the actor is trained for it is checked when it is used, and a refusal
 * says why (the list stays one query however many tasks it shows).
 */
export function handoverOffers(actor: Actor, task: TaskFacts, canHandle: boolean) {
  const movable = isMovable(task);
  return {
    canNotClaim: !movable || !canHandle || task.assigned_to === actor.id,
    canNotAssign: !movable || !mayAssignTask(actor, task.scope, canHandle),
    canNotRelease: !movable || task.assigned_to !== actor.id,
  };
}

export const NOT_YOURS = 'The task is not assigned to you.';
export const MAY_NOT_ASSIGN = 'Only a handler of the request or a manager of its scope may assign its tasks.';
