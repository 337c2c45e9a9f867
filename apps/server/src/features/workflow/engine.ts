import { isRequestEventName, type RequestEventName } from '@dossier/core';
import type { Db } from '../../db/database.js';
import { SerialPass } from '../../jobs/serialPass.js';
import type { LiveHub } from '../../live/hub.js';
import { getRequestSettings } from '../configuration/index.js';
import type { RecipientLinkConfig } from '../recipientAccess/index.js';
import { sweepReminders } from './reminders.js';
import * as repo from './repository.js';
import type { RuleContext, WorkflowEvent, WorkflowRule } from './rule.js';
import { WORKFLOW_RULES } from './rules/index.js';
import { addWorkflowTask } from './tasks.js';

// The workflow engine (docs/ARCHITECTURE.md "Workflow engine"). The events table is its outbox:
// every change writes an event in its own transaction, and the engine reacts to each pending event
// in a transaction of its own that runs the event's rules and marks the event done, so a reaction
// happens exactly when the event counts as handled, even if a process dies in between.
//
// Order and exactly-once across instances: each pass takes a transaction-scoped advisory lock, so
// one engine at a time handles events, lowest id first; the others find the lock taken and wait for
// the next wake-up. Events of one request are written under that request's row lock, so their id
// order is their commit order. Latency: the insert trigger on events NOTIFYs 'workflow_events' at
// commit, which wakes every engine; a sweep every second is the backstop.

const SWEEP_MS = 1000;
const REMINDER_MS = 60_000;
/** A rule failing this many times in a row gives up on the event and leaves an exception task. */
const MAX_FAILURES = 5;

interface Logger {
  warn(msg: string): void;
}

export interface WorkflowEngineOptions {
  live?: LiveHub;
  /**
   * The address of the app, for the absolute links of workflow mails (appUrlOf), and the keys of the
   * recipient's links, for the reminders that print them.
   */
  config: RecipientLinkConfig;
  log: Logger;
  rules?: readonly WorkflowRule[];
}

type Outcome = 'handled' | 'empty' | 'busy';

export class WorkflowEngine {
  private timer: NodeJS.Timeout | undefined;
  private reminderTimer: NodeJS.Timeout | undefined;
  private readonly passes = new SerialPass(() => this.drain());
  private readonly failures = new Map<string, number>();
  private readonly rules: readonly WorkflowRule[];

  constructor(
    private readonly db: Db,
    private readonly options: WorkflowEngineOptions,
  ) {
    this.rules = options.rules ?? WORKFLOW_RULES;
  }

  async start(): Promise<void> {
    await this.options.live?.subscribe('workflow_events', () => this.kick());
    this.timer = setInterval(() => this.kick(), SWEEP_MS);
    this.timer.unref();
    this.reminderTimer = setInterval(() => void this.remind(), REMINDER_MS);
    this.reminderTimer.unref();
    this.kick();
  }

  /** Handles pending events now, or right after the pass in progress. */
  kick(): void {
    this.passes.kick();
  }

  /** Handles every pending event (as far as this engine holds the lock); for tests and the sweep. */
  async drain(): Promise<number> {
    let handled = 0;
    while (!this.passes.stopped) {
      const outcome = await this.handleNext();
      if (outcome !== 'handled') break;
      handled++;
    }
    return handled;
  }

  private async remind(): Promise<void> {
    try {
      const swept = await sweepReminders(this.db, { live: this.options.live, config: this.options.config });
      if (swept.linksSealedElsewhere > 0)
        this.options.log.warn(
          `${swept.linksSealedElsewhere} reminder(s) went without the recipient's link: it was sealed under a key this instance does not hold. Give every instance the same RECIPIENT_LINK_KEY.`,
        );
    } catch (error) {
      this.options.log.warn(`workflow reminders failed: ${message(error)}`);
    }
  }

  private async handleNext(): Promise<Outcome> {
    let eventId: string | undefined;
    try {
      return await this.db.transaction().execute(async (trx) => {
        if (!(await repo.tryEngineLock(trx))) return 'busy';
        const row = await repo.nextPendingEvent(trx);
        if (!row) return 'empty';
        eventId = row.id;
        // A request event of a name no longer written (an older row) has no rule to react to.
        if (row.aggregate_type === 'request' && isRequestEventName(row.type))
          await this.react(trx, toEvent(row, row.type));
        await repo.markEventDone(trx, row.id);
        return 'handled';
      });
    } catch (error) {
      if (!eventId) {
        this.options.log.warn(`workflow engine: ${message(error)}`);
        return 'busy';
      }
      return this.failed(eventId, error);
    }
  }

  private async react(trx: RuleContext['trx'], event: WorkflowEvent): Promise<void> {
    const rules = this.rules.filter((r) => r.on.includes(event.type));
    if (rules.length === 0) return;
    const request = await repo.findRequestForWorkflow(trx, event.requestNumber);
    if (!request) return;
    const settings = await getRequestSettings(trx, request.scope);
    const deps = { live: this.options.live, config: this.options.config };
    for (const rule of rules) {
      if (rule.addsTasks && settings?.disableWorkflowTasks) continue;
      await rule.handle({ trx, deps, event, request, settings });
    }
  }

  /**
   * A rule threw: the event stays pending and is tried again on the next pass. After MAX_FAILURES
   * the engine stops trying (later events must not wait forever) and leaves an exception task on
   * the request, the answer in docs/ARCHITECTURE.md to a failed automatic step.
   */
  private async failed(eventId: string, error: unknown): Promise<Outcome> {
    const count = (this.failures.get(eventId) ?? 0) + 1;
    this.failures.set(eventId, count);
    this.options.log.warn(`workflow event ${eventId} failed (${count}/${MAX_FAILURES}): ${message(error)}`);
    if (count < MAX_FAILURES) return 'busy';
    this.failures.delete(eventId);
    await this.db.transaction().execute(async (trx) => {
      const row = await repo.lockPendingEvent(trx, eventId);
      if (!row) return;
      await repo.markEventDone(trx, eventId);
      const request =
        row.aggregate_type === 'request'
          ? await repo.findRequestForWorkflow(trx, row.aggregate_id)
          : undefined;
      if (request)
        await addWorkflowTask(
          trx,
          { live: this.options.live },
          {
            type: 'exception',
            request,
            key: `exception:event:${eventId}`,
            triggeredAt: new Date(),
            triggeredBy: null,
            notice: `The automatic step after "${row.type}" failed: ${message(error).slice(0, 300)}. Do it by hand.`,
          },
        );
    });
    return 'handled';
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.reminderTimer) clearInterval(this.reminderTimer);
    await this.passes.stop();
  }
}

function toEvent(row: repo.PendingEvent, type: RequestEventName): WorkflowEvent {
  return {
    id: row.id,
    type,
    requestNumber: row.aggregate_id,
    actor: row.actor,
    payload: row.payload ?? {},
    createdAt: row.created_at,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
