import {
  isWithinScope,
  type PagingQuery,
  permissionsOfRoles,
  type SkillLevel,
  type SkillStatus,
  type SkillsMode,
  type SkillUser,
  type TaskSkillsView,
  TRAINABLE_TASK_TYPES,
  type WorkflowTaskType,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { conflict, fieldsInvalid, forbidden } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { LiveHub } from '../../live/hub.js';
import { reassignOpenTasks } from '../assignment/index.js';
import { type Actor, scopesWithPermission } from '../auth/index.js';
import { onlineUsers } from '../presence/index.js';
import * as repo from './repository.js';

// Task skills: per user and trainable task type a level (untrained/trained) and a status
// (inactive/active); status can be active only while trained. Assignment takes a user for a task
// type only when trained and active, so every change re-runs the assignment of the user's tasks.

export interface SkillChange {
  userId: string;
  scope: string;
  skillLevels?: Record<string, string> | undefined;
  skillStatus?: Record<string, string> | undefined;
}

const TITLES: Record<SkillsMode, string> = { levels: 'Task Skill Levels', status: 'Task Skill Status' };
const STATUS_NEEDS_TRAINED = 'The status can be changed only when the level is trained.';

function skillScopes(actor: Actor): string[] {
  return scopesWithPermission(actor, 'task:skills');
}

async function describeUsers(
  db: DbOrTrx,
  users: { id: string; name: string; scope: string }[],
): Promise<SkillUser[]> {
  const ids = users.map((u) => u.id);
  const [roles, skills, online] = await Promise.all([
    repo.findRoles(db, ids),
    repo.findSkills(db, ids),
    onlineUsers(db, ids),
  ]);
  return users.map((u) => {
    const skillLevels: Record<string, SkillLevel> = {};
    const skillStatus: Record<string, SkillStatus> = {};
    for (const type of TRAINABLE_TASK_TYPES) {
      const row = skills.find((s) => s.user_id === u.id && s.task_type === type);
      skillLevels[type] = row?.level ?? 'untrained';
      skillStatus[type] = row?.level === 'trained' ? row.status : 'inactive';
    }
    return {
      id: u.id,
      userId: u.id,
      name: u.name,
      scope: u.scope,
      permissions: permissionsOfRoles(roles.filter((r) => r.user_id === u.id).map((r) => r.role)),
      isOnline: online.has(u.id),
      skillLevels,
      skillStatus,
    };
  });
}

/** The view of /tasks/skills/levels or /tasks/skills/status: a page of the users the actor manages. */
export async function getSkillsView(
  db: Db,
  actor: Actor,
  mode: SkillsMode,
  query: PagingQuery & { name?: string | undefined },
): Promise<TaskSkillsView> {
  const { rows, total } = await repo.listUsers(db, {
    scopes: skillScopes(actor),
    name: query.name,
    offset: query.pageOffset,
    size: query.pageSize,
  });
  return {
    $type: 'taskSkills',
    title: TITLES[mode],
    mode,
    taskTypes: [...TRAINABLE_TASK_TYPES],
    name: query.name ?? '',
    users: await describeUsers(db, rows),
    total,
    paging: { offset: query.pageOffset, size: query.pageSize },
  };
}

const isTrainable = (type: string): type is WorkflowTaskType =>
  (TRAINABLE_TASK_TYPES as readonly string[]).includes(type);

/** The skills of one user after a change, or the field errors of the change. */
function applyChange(
  change: SkillChange,
  index: number,
  current: { task_type: string; level: SkillLevel; status: SkillStatus }[],
  errors: Record<string, string>,
) {
  const next = new Map<string, { level: SkillLevel; status: SkillStatus }>();
  for (const type of TRAINABLE_TASK_TYPES) {
    const row = current.find((s) => s.task_type === type);
    next.set(type, { level: row?.level ?? 'untrained', status: row?.status ?? 'inactive' });
  }
  const field = (part: string, type: string) => `users.${index}.${part}.${type}`;
  for (const [type, level] of Object.entries(change.skillLevels ?? {})) {
    if (!isTrainable(type)) errors[field('skillLevels', type)] = 'Unknown task type.';
    else if (level !== 'untrained' && level !== 'trained')
      errors[field('skillLevels', type)] = 'Choose untrained or trained.';
    else {
      const skill = next.get(type) as { level: SkillLevel; status: SkillStatus };
      // An untrained user cannot be active: dropping the level ends the status too.
      next.set(type, { level, status: level === 'untrained' ? 'inactive' : skill.status });
    }
  }
  for (const [type, status] of Object.entries(change.skillStatus ?? {})) {
    if (!isTrainable(type)) errors[field('skillStatus', type)] = 'Unknown task type.';
    else if (status !== 'inactive' && status !== 'active')
      errors[field('skillStatus', type)] = 'Choose inactive or active.';
    else {
      const skill = next.get(type) as { level: SkillLevel; status: SkillStatus };
      if (skill.level !== 'trained' && status === 'active')
        errors[field('skillStatus', type)] = STATUS_NEEDS_TRAINED;
      else next.set(type, { ...skill, status });
    }
  }
  return next;
}

/** POST /tasks/skills: saves levels or status of users within the actor's scopes. */
export async function saveSkills(
  deps: { db: Db; jobs?: JobQueue | undefined; live?: LiveHub },
  actor: Actor,
  changes: SkillChange[],
): Promise<{ users: SkillUser[] }> {
  const scopes = skillScopes(actor);
  const ids = [...new Set(changes.map((c) => c.userId))];
  const changed = await deps.db.transaction().execute(async (trx) => {
    const users = await repo.findUsers(trx, ids);
    const errors: Record<string, string> = {};
    changes.forEach((change, i) => {
      const user = users.find((u) => u.id === change.userId);
      if (!user) errors[`users.${i}.userId`] = 'No such user.';
    });
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    for (const user of users) {
      if (!scopes.some((s) => isWithinScope(user.scope, s)))
        throw forbidden('You may not change the task skills of this user.');
    }
    changes.forEach((change, i) => {
      const user = users.find((u) => u.id === change.userId);
      // The page was loaded when the user belonged elsewhere: its rows no longer describe the user.
      if (user && user.scope !== change.scope)
        throw conflict(`The scope of ${user.id} has changed: reload the page and try again.`);
      if (user && !user.handles)
        errors[`users.${i}.userId`] = 'Only users who work requests have task skills.';
      if (i !== changes.findIndex((c) => c.userId === change.userId))
        errors[`users.${i}.userId`] = 'The user is listed twice.';
    });
    const current = await repo.findSkills(trx, ids, { forUpdate: true });
    const plans = changes.map((change, i) =>
      applyChange(
        change,
        i,
        current.filter((s) => s.user_id === change.userId),
        errors,
      ),
    );
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    const changedUsers: string[] = [];
    for (const [i, change] of changes.entries()) {
      const diff: Record<string, { from: string; to: string }> = {};
      // plans is changes mapped one to one.
      for (const [type, skill] of plans[i]!) {
        const before = current.find((s) => s.user_id === change.userId && s.task_type === type);
        const from = `${before?.level ?? 'untrained'}/${before?.status ?? 'inactive'}`;
        const to = `${skill.level}/${skill.status}`;
        if (from === to) continue;
        diff[type] = { from, to };
        await repo.upsertSkill(trx, { userId: change.userId, taskType: type, ...skill });
      }
      if (Object.keys(diff).length === 0) continue;
      changedUsers.push(change.userId);
      await recordEvent(trx, {
        type: 'taskSkillsChanged',
        aggregateType: 'user',
        aggregateId: change.userId,
        actor: actor.id,
        payload: { changes: diff },
      });
    }
    for (const userId of changedUsers) await reassignOpenTasks(trx, deps.jobs, { userId }, deps.live);
    return users;
  });
  return { users: await describeUsers(deps.db, changed) };
}
