import { assignedTasksRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { listAssignedTasks } from '../tasks/index.js';
import { taskActionRoutes, workableBy } from './actions.js';
import { taskHandoverRoutes } from './handover.js';

export function taskRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, assignedTasksRoute, async (_input, request) => {
    const actor = requireActor(request);
    return { tasks: await listAssignedTasks(deps.db, actor, workableBy(actor)) };
  });
  taskActionRoutes(app, deps);
  taskHandoverRoutes(app, deps);
}
