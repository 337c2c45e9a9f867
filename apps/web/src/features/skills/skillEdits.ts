import type { RouteInput, SkillsMode, SkillUser, saveSkillsRoute } from '@dossier/core';

// The unsaved changes of a task skills page, and the body of POST /tasks/skills they become.

/** Changed values by user id, then task type. */
export type SkillEdits = Record<string, Record<string, string>>;

export function skillValue(
  user: SkillUser,
  mode: SkillsMode,
  type: string,
  edits: SkillEdits,
): string | undefined {
  const edited = edits[user.userId]?.[type];
  if (edited !== undefined) return edited;
  return mode === 'levels' ? user.skillLevels[type] : user.skillStatus[type];
}

/** Records a change; a value set back to what was loaded is no change. */
export function setEdit(
  edits: SkillEdits,
  user: SkillUser,
  mode: SkillsMode,
  type: string,
  value: string,
): SkillEdits {
  const loaded = mode === 'levels' ? user.skillLevels[type] : user.skillStatus[type];
  const own = { ...edits[user.userId] };
  if (value === loaded) delete own[type];
  else own[type] = value;
  const next = { ...edits };
  if (Object.keys(own).length === 0) delete next[user.userId];
  else next[user.userId] = own;
  return next;
}

/** Status is editable only when the level is trained. */
export function statusEditable(user: SkillUser, type: string): boolean {
  return user.skillLevels[type] === 'trained';
}

export function saveBody(
  users: SkillUser[],
  mode: SkillsMode,
  edits: SkillEdits,
): RouteInput<typeof saveSkillsRoute>['body'] {
  return {
    users: users
      .filter((u) => edits[u.userId])
      .map((u) => ({
        userId: u.userId,
        scope: u.scope,
        [mode === 'levels' ? 'skillLevels' : 'skillStatus']: edits[u.userId],
      })),
  };
}
