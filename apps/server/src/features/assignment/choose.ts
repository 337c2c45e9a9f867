import type { GROUPING_BEHAVIOURS } from '@dossier/core';

// Who gets a task (docs/ARCHITECTURE.md "Assignment"), as a pure decision over what the repository found.
// strict: every task of a request goes to the user who holds its open tasks;
// lax: that user if a candidate, else the least loaded candidate;
// disabled: the least loaded candidate. Ties go to the smallest user id, so the choice is stable.

export type GroupingBehaviour = (typeof GROUPING_BEHAVIOURS)[number];

export interface Candidate {
  userId: string;
  /** Open tasks assigned to the user right now. */
  openTasks: number;
}

export interface AssignmentInput {
  grouping: GroupingBehaviour;
  candidates: Candidate[];
  /**
   * The user holding the most open tasks of the task's request (not counting the task itself), if
   * that user may still handle the request; undefined for a task without a request or a request
   * nobody holds yet.
   */
  holder?: { userId: string; isCandidate: boolean } | undefined;
}

export function leastLoaded(candidates: readonly Candidate[]): string | undefined {
  let best: Candidate | undefined;
  for (const c of candidates) {
    if (!best || c.openTasks < best.openTasks || (c.openTasks === best.openTasks && c.userId < best.userId))
      best = c;
  }
  return best?.userId;
}

/** The assignee, or undefined when nobody may take the task (it goes to the fallback). */
export function chooseAssignee(input: AssignmentInput): string | undefined {
  const { grouping, candidates, holder } = input;
  // Strict grouping keeps the request with one person even for a type they are not trained for:
  // grouping is the configured priority, and that person may handle the request.
  if (grouping === 'strict' && holder) return holder.userId;
  if (grouping !== 'disabled' && holder?.isCandidate) return holder.userId;
  return leastLoaded(candidates);
}
