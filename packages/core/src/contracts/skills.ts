import { z } from 'zod';
import { pagingQuerySchema } from '../searchResult.js';
import type { SkillUser } from '../tasks.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The task skills pages: the levels (trained or not) and the status (active or not) of each user.

/** A user of the skills pages with its level and status per trainable task type. */
export const skillUserSchema = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  scope: z.string(),
  permissions: z.array(z.string()),
  isOnline: z.boolean(),
  skillLevels: z.record(z.string(), z.enum(['untrained', 'trained'])),
  skillStatus: z.record(z.string(), z.enum(['inactive', 'active'])),
}) satisfies z.ZodType<SkillUser>;

export const taskSkillsViewSchema = defineView('taskSkills', {
  mode: z.enum(['levels', 'status']),
  taskTypes: z.array(z.string()),
  name: z.string(),
  users: z.array(skillUserSchema),
  total: z.number(),
  paging: z.object({ offset: z.number(), size: z.number() }),
});
export type TaskSkillsView = z.infer<typeof taskSkillsViewSchema>;

const skillsQuery = pagingQuerySchema.extend({ name: z.string().max(200).optional() });

/** GET /tasks/skills/levels: who is trained for which task type. */
export const skillLevelsRoute = defineRoute({
  method: 'GET',
  path: '/tasks/skills/levels',
  query: skillsQuery,
  answer: taskSkillsViewSchema,
});

/** GET /tasks/skills/status: who takes which task type now. */
export const skillStatusRoute = defineRoute({
  method: 'GET',
  path: '/tasks/skills/status',
  query: skillsQuery,
  answer: taskSkillsViewSchema,
});

const skillMap = z.record(z.string().max(60), z.string().max(20));

/** POST /tasks/skills: levels or status of users; answers those users as they are now. */
export const saveSkillsRoute = defineRoute({
  method: 'POST',
  path: '/tasks/skills',
  body: z.object({
    users: z
      .array(
        z
          .object({
            userId: z.string().min(1, 'Required.').max(100),
            scope: z.string().min(1, 'Required.').max(500),
            skillLevels: skillMap.optional(),
            skillStatus: skillMap.optional(),
          })
          .refine((u) => u.skillLevels !== undefined || u.skillStatus !== undefined, {
            message: 'Give skillLevels or skillStatus.',
            path: ['skillLevels'],
          }),
      )
      .min(1, 'Give at least one user.')
      .max(200),
  }),
  answer: z.object({ users: z.array(skillUserSchema) }),
});
