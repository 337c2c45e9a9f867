import { pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { getSkillsView, saveSkills } from './service.js';

// The task skills pages: GET /tasks/skills/levels and /tasks/skills/status, POST /tasks/skills.

const viewQuery = pagingQuerySchema.extend({ name: z.string().max(200).optional() });

const skillMap = z.record(z.string().max(60), z.string().max(20));
const saveBody = z.object({
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
});

export function skillRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  for (const mode of ['levels', 'status'] as const) {
    r.get(`/tasks/skills/${mode}`, { schema: { querystring: viewQuery } }, async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getSkillsView(deps.db, requirePermission(request, 'task:skills'), mode, request.query),
      ),
    );
  }

  r.post(
    '/tasks/skills',
    { onRequest: permissionFirst('task:skills'), schema: { body: saveBody } },
    async (request) => saveSkills(deps, requirePermission(request, 'task:skills'), request.body.users),
  );
}
