import { permissionsOfRole, ROLES } from '@dossier/core';
import { type RawBuilder, type SqlBool, sql } from 'kysely';
import type { DbOrTrx, Trx } from '../../db/database.js';
import { scopeAtOrUnder, scopeCovers } from '../../db/scopes.js';
import { TASK_COLUMNS } from '../tasks/index.js';

// SQL of task assignment. Candidates come through task_skills_ready_idx (type -> trained and active
// users), loads from user_open_tasks, a request's holder through tasks_request_idx.

/** The roles that may work a request; only their holders are ever assigned tasks. */
export const HANDLING_ROLES: string[] = ROLES.filter((r) => permissionsOfRole(r).includes('request:handle'));

/**
 * True for a user (its id column, e.g. sql.ref('u.id')) who holds a handling role, covering
 * `scope` when given.
 */
export function holdsHandlingRole(userId: RawBuilder<unknown>, scope?: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from user_roles r where r.user_id = ${userId}
    and r.role in (${sql.join(HANDLING_ROLES)})${scope === undefined ? sql`` : sql` and ${scopeCovers(sql.ref('r.scope'), scope)}`})`;
}

/** Bounds one candidate query; a task type has a team of a few dozen people in practice. */
const CANDIDATE_LIMIT = 500;

export function findTask(db: DbOrTrx, taskId: string) {
  return db
    .selectFrom('tasks')
    .select([...TASK_COLUMNS, 'scope', 'completed_at'])
    .where('id', '=', taskId)
    .executeTakeFirst();
}

export function lockTask(db: Trx, taskId: string) {
  return db
    .selectFrom('tasks')
    .select([...TASK_COLUMNS, 'scope'])
    .where('id', '=', taskId)
    .forUpdate()
    .executeTakeFirst();
}

export type AssignableTask = NonNullable<Awaited<ReturnType<typeof findTask>>>;

/**
 * Enabled users trained and active for the task type who hold a handling role that covers the task's
 * scope (so they may work it) and lies on the line of the assign scope (inside it, or above it).
 * Answers each with its number of open tasks.
 */
export async function listCandidates(
  db: DbOrTrx,
  input: { taskType: string; taskScope: string; assignScope: string; userIds?: string[] | undefined },
) {
  let query = db
    .selectFrom('task_skills as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      'u.id as userId',
      'u.name as name',
      // The kept count (migration 7001): a few rows per user, where counting the open tasks read
      // every one of them (182,915 for the demo handler on 1,000,000 requests).
      (eb) =>
        eb
          .selectFrom('user_open_tasks as o')
          .select(sql<string>`sum(o.n)`.as('n'))
          .whereRef('o.user_id', '=', 'u.id')
          .as('openTasks'),
    ])
    .where('s.task_type', '=', input.taskType)
    .where('s.level', '=', 'trained')
    .where('s.status', '=', 'active')
    .where('u.disabled', '=', false)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('user_roles as r')
          .select('r.id')
          .whereRef('r.user_id', '=', 'u.id')
          .where('r.role', 'in', HANDLING_ROLES)
          .where(scopeCovers(sql.ref('r.scope'), input.taskScope))
          .where((w) =>
            w.or([
              scopeCovers(sql.ref('r.scope'), input.assignScope),
              scopeAtOrUnder(sql.ref('r.scope'), input.assignScope),
            ]),
          ),
      ),
    );
  if (input.userIds) query = query.where('u.id', 'in', input.userIds.length ? input.userIds : ['']);
  const rows = await query.orderBy('u.id').limit(CANDIDATE_LIMIT).execute();
  return rows.map((r) => ({ userId: r.userId, name: r.name, openTasks: Number(r.openTasks ?? 0) }));
}

/** A user as a refusal names it: name, whether disabled, and its skill for one task type. */
export function findUserWithSkill(db: DbOrTrx, userId: string, taskType: string) {
  return db
    .selectFrom('users as u')
    .leftJoin('task_skills as s', (join) =>
      join.onRef('s.user_id', '=', 'u.id').on('s.task_type', '=', taskType),
    )
    .select(['u.id', 'u.name', 'u.disabled', 's.level', 's.status'])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** A user's name and whether it is disabled. */
export function findUserState(db: DbOrTrx, userId: string) {
  return db.selectFrom('users').select(['name', 'disabled']).where('id', '=', userId).executeTakeFirst();
}

/** The names of users, by id (for history lines). */
export async function userNames(db: DbOrTrx, userIds: string[]): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'name']).where('id', 'in', userIds).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Whether a user is enabled and holds a handling role covering the scope. */
export async function mayHandleScope(db: DbOrTrx, userId: string, scope: string): Promise<boolean> {
  const row = await db
    .selectFrom('users as u')
    .select('u.id')
    .where('u.id', '=', userId)
    .where('u.disabled', '=', false)
    .where(holdsHandlingRole(sql.ref('u.id'), scope))
    .executeTakeFirst();
  return row !== undefined;
}

/** The user holding the most open tasks of the request, other than the given task. */
export async function findRequestHolder(
  db: DbOrTrx,
  requestNumber: string,
  exceptTaskId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select(['assigned_to', sql<string>`count(*)`.as('n'), sql<Date>`min(triggered_at)`.as('first')])
    .where('request_number', '=', requestNumber)
    .where('completed_at', 'is', null)
    .where('assigned_to', 'is not', null)
    .where('id', '!=', exceptTaskId)
    .where('type', '!=', 'fallback')
    .groupBy('assigned_to')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(sql`min(triggered_at)`)
    .limit(1)
    .executeTakeFirst();
  return row?.assigned_to ?? undefined;
}

export async function setAssignee(db: DbOrTrx, taskId: string, userId: string | null) {
  return db
    .updateTable('tasks')
    .set({ assigned_to: userId })
    .where('id', '=', taskId)
    .returning(TASK_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** Open tasks assigned to the user (the ones that may have to move when the user changes). */
export function listOpenTaskIdsOf(db: DbOrTrx, userId: string, limit: number) {
  return db
    .selectFrom('tasks')
    .select(['id', 'type', 'request_number'])
    .where('assigned_to', '=', userId)
    .where('completed_at', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Open unassigned tasks of the given types, oldest first (tasks_open_type_due_idx). */
export function listUnassignedOpenTaskIds(db: DbOrTrx, types: string[], limit: number) {
  if (types.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('tasks')
    .select(['id', 'type', 'request_number'])
    .where('type', 'in', types)
    .where('completed_at', 'is', null)
    .where('assigned_to', 'is', null)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The task types the user is trained and active for. */
export async function readySkillsOf(db: DbOrTrx, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('task_skills')
    .select('task_type')
    .where('user_id', '=', userId)
    .where('level', '=', 'trained')
    .where('status', '=', 'active')
    .execute();
  return rows.map((r) => r.task_type);
}

/** Open tasks of the request nobody holds (fallback tasks and the sender's own tasks aside). */
export async function countUnassignedOpen(
  db: DbOrTrx,
  requestNumber: string,
  senderTypes: readonly string[],
): Promise<number> {
  const row = await db
    .selectFrom('tasks')
    .select(sql<string>`count(*)`.as('n'))
    .where('request_number', '=', requestNumber)
    .where('completed_at', 'is', null)
    .where('assigned_to', 'is', null)
    .where('type', 'not in', ['fallback', ...senderTypes])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function listOpenFallbackTasks(db: DbOrTrx, requestNumber: string) {
  return db
    .selectFrom('tasks')
    .select(['id'])
    .where('request_number', '=', requestNumber)
    .where('type', '=', 'fallback')
    .where('completed_at', 'is', null)
    .execute();
}

export async function findApplicantName(db: DbOrTrx, requestNumber: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('requests')
    .select('applicant_name')
    .where('request_number', '=', requestNumber)
    .executeTakeFirst();
  return row?.applicant_name;
}

export async function taskScopeOf(db: DbOrTrx, taskId: string): Promise<string> {
  const row = await db.selectFrom('tasks').select('scope').where('id', '=', taskId).executeTakeFirstOrThrow();
  return row.scope;
}
