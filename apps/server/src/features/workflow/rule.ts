import type { RequestEventName, RequestSettingsEntryData } from '@dossier/core';
import type { Transaction } from 'kysely';
import type { AppAddress } from '../../config.js';
import type { Database } from '../../db/schema.js';
import type { AssignmentDeps } from '../assignment/index.js';
import type { WorkflowRequest } from './repository.js';

// A workflow rule: one small handler of one kind of request event (docs/ARCHITECTURE.md "Workflow rules").
// It runs after the event's transaction committed, inside the engine's transaction that also marks
// the event done, so its tasks exist exactly when the event counts as handled.

export interface WorkflowEvent {
  id: string;
  type: RequestEventName;
  requestNumber: string;
  actor: string | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** What rules may use besides the database: live pushes, and the public URL for links in mails. */
export interface WorkflowDeps extends AssignmentDeps {
  config?: AppAddress | undefined;
}

export interface RuleContext {
  trx: Transaction<Database>;
  deps: WorkflowDeps;
  event: WorkflowEvent;
  request: WorkflowRequest;
  settings: RequestSettingsEntryData | undefined;
}

export interface WorkflowRule {
  name: string;
  /** The event types it handles. */
  on: readonly RequestEventName[];
  /**
   * Rules that add tasks skip requests whose settings have disableWorkflowTasks. Rules that only
   * finish or assign existing tasks keep running, so switching workflow tasks off never strands a
   * task that was already there.
   */
  addsTasks: boolean;
  handle(ctx: RuleContext): Promise<void>;
}

/** A string field of the event payload (ids of results, invoices, tasks). */
export function payloadString(event: WorkflowEvent, field: string): string | undefined {
  const value = event.payload[field];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
