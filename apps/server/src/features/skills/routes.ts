import { saveSkillsRoute, skillLevelsRoute, skillStatusRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { getSkillsView, saveSkills } from './service.js';

// The task skills pages: GET /tasks/skills/levels and /tasks/skills/status, POST /tasks/skills.

export function skillRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const [mode, route] of [
    ['levels', skillLevelsRoute],
    ['status', skillStatusRoute],
  ] as const) {
    serve(app, route, async ({ query }, request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getSkillsView(deps.db, requirePermission(request, 'task:skills'), mode, query),
      ),
    );
  }

  serve(
    app,
    saveSkillsRoute,
    async ({ body }, request) => saveSkills(deps, requirePermission(request, 'task:skills'), body.users),
    { onRequest: permissionFirst('task:skills') },
  );
}
