import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database.js';
import { likeContains, likeStartsWith } from '../../db/search.js';
import { holdsHandlingRole } from '../assignment/index.js';

// SQL of the task skills pages: the users within the actor's scopes who may work requests (only
// they are ever assigned tasks, so only their skills mean anything), their roles and their skills.

export interface SkillUserQuery {
  scopes: string[];
  name?: string | undefined;
  offset: number;
  size: number;
}

function usersWithin(db: DbOrTrx, query: SkillUserQuery) {
  let q = db
    .selectFrom('users')
    .where('disabled', '=', false)
    .where(holdsHandlingRole(sql.ref('users.id')));
  if (!query.scopes.includes('/')) {
    q = q.where((eb) => eb.or(query.scopes.map((s) => eb('users.scope', 'like', likeStartsWith(s)))));
  }
  if (query.name?.trim()) {
    const term = likeContains(query.name);
    q = q.where((eb) =>
      eb.or([eb(sql`lower(users.name)`, 'like', term), eb(sql`lower(users.id)`, 'like', term)]),
    );
  }
  return q;
}

/** One page of enabled users whose scope lies within the given scopes, by name, and the total. */
export async function listUsers(db: DbOrTrx, query: SkillUserQuery) {
  if (query.scopes.length === 0) return { rows: [], total: 0 };
  const [rows, count] = await Promise.all([
    usersWithin(db, query)
      .select(['id', 'name', 'scope'])
      .orderBy('name')
      .orderBy('id')
      .offset(query.offset)
      .limit(query.size)
      .execute(),
    usersWithin(db, query)
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}

/** Users by id, and whether each holds a role that works requests. */
export function findUsers(db: DbOrTrx, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('users')
    .select(['id', 'name', 'scope', 'disabled'])
    .select(holdsHandlingRole(sql.ref('users.id')).as('handles'))
    .where('id', 'in', userIds)
    .execute();
}

export function findRoles(db: DbOrTrx, userIds: string[]) {
  if (userIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('user_roles').select(['user_id', 'role']).where('user_id', 'in', userIds).execute();
}

export function findSkills(db: DbOrTrx, userIds: string[], options: { forUpdate?: boolean } = {}) {
  if (userIds.length === 0) return Promise.resolve([]);
  const q = db
    .selectFrom('task_skills')
    .select(['user_id', 'task_type', 'level', 'status'])
    .where('user_id', 'in', userIds);
  return (options.forUpdate ? q.forUpdate() : q).execute();
}

export async function upsertSkill(
  db: DbOrTrx,
  row: { userId: string; taskType: string; level: 'untrained' | 'trained'; status: 'inactive' | 'active' },
): Promise<void> {
  await db
    .insertInto('task_skills')
    .values({ user_id: row.userId, task_type: row.taskType, level: row.level, status: row.status })
    .onConflict((oc) =>
      oc
        .columns(['user_id', 'task_type'])
        .doUpdateSet({ level: row.level, status: row.status, updated_at: sql`now()` }),
    )
    .execute();
}
