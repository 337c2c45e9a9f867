import type {
  AdminErasureView,
  AdminRetentionView,
  ErasureMatch,
  ErasureSearch,
  RetentionDue,
  RetentionRun,
  RetentionRunKind,
} from '@dossier/core';
import { accessLogMonthsBefore, dropAccessLogMonthsBefore } from '../../audit/accessLog.js';
import type { Db } from '../../db/database.js';
import type { RetentionLeftRequest } from '../../db/schema.js';
import type { FileStorage } from '../../files/storage.js';
import { fieldsInvalid } from '../../http/errors.js';
import { publishTopic } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { configurationsFor, getRetention } from '../configuration/index.js';
import { deIdentifyRequest, removeFilesOf } from './removal.js';
import * as repo from './repository.js';
import * as runs from './runsRepository.js';

/** The live topic of the Retention page (runNow.ts). */
export const RETENTION_TOPIC = 'retention';

// Retention (issue 36): each scope's effective retention entry says how many months after closing
// a request's files are removed and its applicant de-identified. A run works scope by scope in
// batches of BATCH requests, one transaction each, so a run holds few locks at a time and two runs
// at once share the work. Each run is a row of retention_runs: counts and request numbers only.

export const BATCH = 50;

const NARROW_DOWN = "Enter the date of birth or a reference, so only this person's requests are erased.";

export interface RetentionContext {
  db: Db;
  storage: FileStorage;
  now?: () => Date;
}

/** The moment `months` calendar months before `now` (end of month clamped, as dates do). */
export function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

interface ScopePlan {
  scope: string;
  filesMonths: number | null;
  personalMonths: number | null;
  filesCutoff?: Date;
  personalCutoff?: Date;
}

async function plansOf(db: Db, within: string[], now: Date): Promise<ScopePlan[]> {
  const plans: ScopePlan[] = [];
  for (const scope of await repo.scopesWithClosedRequests(db, within)) {
    const retention = await getRetention(db, scope);
    const filesMonths = retention?.deleteFilesAfterMonths ?? null;
    const personalMonths = retention?.deIdentifyAfterMonths ?? null;
    if (filesMonths === null && personalMonths === null) continue;
    plans.push({
      scope,
      filesMonths,
      personalMonths,
      ...(filesMonths !== null ? { filesCutoff: monthsBefore(now, filesMonths) } : {}),
      ...(personalMonths !== null ? { personalCutoff: monthsBefore(now, personalMonths) } : {}),
    });
  }
  return plans;
}

/** What the next run will remove in the given scopes, per scope, before it runs. */
export async function previewRetention(ctx: RetentionContext, within: string[]): Promise<RetentionDue[]> {
  const now = ctx.now?.() ?? new Date();
  const due: RetentionDue[] = [];
  for (const plan of await plansOf(ctx.db, within, now)) {
    const cutoffs = [plan.filesCutoff, plan.personalCutoff].filter((d): d is Date => d !== undefined);
    const earliest = new Date(Math.max(...cutoffs.map((d) => d.getTime())));
    due.push({
      scope: plan.scope,
      deleteFilesAfterMonths: plan.filesMonths,
      deIdentifyAfterMonths: plan.personalMonths,
      requestsWithFilesDue: plan.filesCutoff
        ? await repo.countDue(ctx.db, plan.scope, 'files', plan.filesCutoff)
        : 0,
      filesDue: plan.filesCutoff ? await repo.countFilesDue(ctx.db, plan.scope, plan.filesCutoff) : 0,
      requestsToDeIdentify: plan.personalCutoff
        ? await repo.countDue(ctx.db, plan.scope, 'personalData', plan.personalCutoff)
        : 0,
      held: await repo.countHeld(ctx.db, plan.scope, earliest),
    });
  }
  return due;
}

/**
 * How long the access log keeps its entries: the longest any scope's effective retention asks
 * for, since its months hold every scope's reads; null (keep it all) when a scope asks for no limit
 * or the root has no retention (a scope without an entry of its own keeps everything then).
 */
export async function accessLogKeepMonths(db: Db): Promise<number | null> {
  const scopes = new Set(['/', ...(await configurationsFor(db)).map((c) => c.scopePath)]);
  let longest = 0;
  for (const scope of scopes) {
    const months = (await getRetention(db, scope))?.keepAccessLogMonths ?? null;
    if (months === null) return null;
    longest = Math.max(longest, months);
  }
  return longest;
}

/** The first moment the access log keeps: whole months before it go. */
async function accessLogCutoff(db: Db, now: Date): Promise<Date | undefined> {
  const keep = await accessLogKeepMonths(db);
  return keep === null ? undefined : monthsBefore(now, keep);
}

export interface RunOutcome {
  runId: string;
  filesRemoved: number;
  deIdentified: number;
  requestNumbers: string[];
  accessLogMonths: string[];
}

/**
 * Runs retention in the given scopes ('/' for the daily job); answers what it did. `runId` is the
 * record an administrator's Run now made when it queued the run (a retry continues it).
 */
export async function runRetention(
  ctx: RetentionContext,
  run: {
    kind: Exclude<RetentionRunKind, 'erasure'>;
    actor: string | null;
    within: string[];
    runId?: string | undefined;
  },
): Promise<RunOutcome> {
  const now = ctx.now?.() ?? new Date();
  const runId = run.runId ?? (await runs.insertRun(ctx.db, { kind: run.kind, actor: run.actor, scopes: [] }));
  const touched = new Set<string>();
  const scopes = new Set<string>();
  let filesRemoved = 0;
  let deIdentified = 0;
  const why = 'the retention of its scope';
  for (const plan of await plansOf(ctx.db, run.within, now)) {
    const { filesCutoff, personalCutoff } = plan;
    if (filesCutoff)
      for (;;) {
        const batch = await ctx.db.transaction().execute(async (trx) => {
          const numbers = await repo.lockDueBatch(trx, plan.scope, 'files', filesCutoff, BATCH);
          for (const n of numbers)
            filesRemoved += await removeFilesOf(trx, ctx.storage, n, now, run.actor, why);
          return numbers;
        });
        for (const n of batch) touched.add(n);
        if (batch.length > 0) scopes.add(plan.scope);
        if (batch.length < BATCH) break;
      }
    if (personalCutoff)
      for (;;) {
        const batch = await ctx.db.transaction().execute(async (trx) => {
          const numbers = await repo.lockDueBatch(trx, plan.scope, 'personalData', personalCutoff, BATCH);
          for (const n of numbers) {
            const row = await repo.lockRequest(trx, n);
            if (row) await deIdentifyRequest(trx, ctx.storage, row, now, run.actor, why);
          }
          return numbers;
        });
        deIdentified += batch.length;
        for (const n of batch) touched.add(n);
        if (batch.length > 0) scopes.add(plan.scope);
        if (batch.length < BATCH) break;
      }
  }
  // The log's months are every scope's: only a run at the root (the daily job, a root
  // administrator's Run now) drops them. Two runs at once: the second finds them gone.
  const cutoff = run.within.includes('/') ? await accessLogCutoff(ctx.db, now) : undefined;
  const accessLogMonths = cutoff ? await dropAccessLogMonthsBefore(ctx.db, cutoff) : [];
  const requestNumbers = [...touched].sort();
  await runs.finishRun(ctx.db, runId, {
    filesRemoved,
    deIdentified,
    requestNumbers,
    left: [],
    scopes: [...scopes].sort(),
    accessLogMonths,
  });
  // Open Retention pages show the run's record (a queued Run now waits for it).
  await publishTopic(ctx.db, RETENTION_TOPIC);
  return { runId, filesRemoved, deIdentified, requestNumbers, accessLogMonths };
}

type RunRow = Awaited<ReturnType<typeof runs.findRun>>;

function toRun(row: RunRow): RetentionRun {
  return {
    id: row.id,
    kind: row.kind,
    startedAt: row.started_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
    actorName: row.actor_name,
    requestedBy: row.requested_by,
    reason: row.reason,
    filesRemoved: row.files_removed,
    requestsDeIdentified: row.requests_de_identified,
    requestNumbers: row.request_numbers,
    leftRequests: row.left_requests,
    accessLogMonths: row.access_log_months,
  };
}

export async function buildRetentionView(
  ctx: RetentionContext,
  within: string[],
): Promise<AdminRetentionView> {
  const due = await previewRetention(ctx, within);
  const cutoff = await accessLogCutoff(ctx.db, ctx.now?.() ?? new Date());
  const sum = (key: 'requestsWithFilesDue' | 'filesDue' | 'requestsToDeIdentify' | 'held') =>
    due.reduce((total, d) => total + d[key], 0);
  return {
    $type: 'adminRetention',
    title: 'Retention',
    due,
    totals: {
      requestsWithFilesDue: sum('requestsWithFilesDue'),
      filesDue: sum('filesDue'),
      requestsToDeIdentify: sum('requestsToDeIdentify'),
      held: sum('held'),
    },
    accessLog: {
      keepMonths: await accessLogKeepMonths(ctx.db),
      monthsDue: within.includes('/') && cutoff ? await accessLogMonthsBefore(ctx.db, cutoff) : [],
    },
    runs: (await runs.listRuns(ctx.db, within)).map(toRun),
  };
}

function toMatch(row: Awaited<ReturnType<typeof repo.findApplicantRequests>>[number]): ErasureMatch {
  return {
    requestNumber: row.request_number,
    scope: row.scope,
    applicantName: row.applicant_name,
    dateOfBirth: row.applicant_date_of_birth ? row.applicant_date_of_birth.toISOString().slice(0, 10) : null,
    status: row.status,
    closedAt: row.closed_at?.toISOString() ?? null,
    deIdentifiedAt: row.de_identified_at?.toISOString() ?? null,
    leftBecause: row.status !== 'closed' ? 'open' : row.legal_hold_at ? 'legalHold' : null,
  };
}

type SearchInput = { [K in keyof ErasureSearch]?: ErasureSearch[K] | undefined };

const searchOf = (s: SearchInput) => ({
  name: s.name ?? '',
  dateOfBirth: s.dateOfBirth ?? '',
  reference: s.reference ?? '',
});

/** The erasure page: with a name, the applicant's requests in the administrator's scopes. */
export async function buildErasureView(
  db: Db,
  within: string[],
  search: SearchInput,
): Promise<AdminErasureView> {
  const view: AdminErasureView = {
    $type: 'adminErasure',
    title: 'Erasure on request',
    search: searchOf(search),
  };
  if (!search.name) return view;
  const rows = await repo.findApplicantRequests(db, within, {
    name: search.name,
    dateOfBirth: search.dateOfBirth,
    reference: search.reference,
  });
  return { ...view, matches: rows.map(toMatch) };
}

/**
 * Erases an applicant at once: each closed request of theirs not on legal hold in the
 * administrator's scopes is de-identified and its files removed; open and held ones are left and
 * listed with why. Recorded with who asked and why.
 */
export async function eraseApplicant(
  ctx: RetentionContext,
  actor: Actor,
  within: string[],
  input: ErasureSearch & { requestedBy: string; reason: string },
): Promise<AdminErasureView> {
  // A name alone may be a namesake's: the date of birth or a reference narrows it to the person.
  if (!input.dateOfBirth && !input.reference)
    throw fieldsInvalid({ dateOfBirth: NARROW_DOWN, reference: NARROW_DOWN });
  const now = ctx.now?.() ?? new Date();
  const found = await repo.findApplicantRequests(ctx.db, within, input);
  const runId = await runs.insertRun(ctx.db, {
    kind: 'erasure',
    actor: actor.id,
    scopes: [],
    requestedBy: input.requestedBy,
    reason: input.reason,
  });
  const erased: string[] = [];
  const left: RetentionLeftRequest[] = [];
  let filesRemoved = 0;
  const why = 'erasure on request';
  for (const match of found) {
    await ctx.db.transaction().execute(async (trx) => {
      // Locked, then judged again: a hold placed or a re-open since the search wins.
      const row = await repo.lockRequest(trx, match.request_number);
      if (!row) return;
      if (row.status !== 'closed')
        return void left.push({ requestNumber: row.request_number, reason: 'open' });
      if (row.legal_hold_at)
        return void left.push({ requestNumber: row.request_number, reason: 'legalHold' });
      filesRemoved += await removeFilesOf(trx, ctx.storage, row.request_number, now, actor.id, why);
      await deIdentifyRequest(trx, ctx.storage, row, now, actor.id, why);
      erased.push(row.request_number);
    });
  }
  await runs.finishRun(ctx.db, runId, {
    filesRemoved,
    deIdentified: erased.length,
    requestNumbers: erased,
    left,
    scopes: [...new Set(found.map((f) => f.scope))].sort(),
    accessLogMonths: [],
  });
  const view = await buildErasureView(ctx.db, within, {});
  return { ...view, done: toRun(await runs.findRun(ctx.db, runId)) };
}
