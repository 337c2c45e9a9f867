import { z } from 'zod';
import type { SkillUser } from '../tasks.js';
import { defineView, typed } from './view.js';

// The task skills pages: the levels (trained or not) and the status (active or not) of each user.

export const taskSkillsViewSchema = defineView('taskSkills', {
  mode: z.enum(['levels', 'status']),
  taskTypes: z.array(z.string()),
  name: z.string(),
  users: z.array(typed<SkillUser>()),
  total: z.number(),
  paging: z.object({ offset: z.number(), size: z.number() }),
});
export type TaskSkillsView = z.infer<typeof taskSkillsViewSchema>;
