import { issueRequestTemplateRoute, issueRequestTemplatesRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../http/deps.js';
import { serve } from '../../../http/serve.js';
import { requireActor } from '../../auth/index.js';
import { listIssueRequestTemplates, renderIssueRequestTemplate } from './templates.js';

// GET /requests/{n}/actions/issueRequest/templates[/{templateId}] (issueRequest panel).

export function issueRequestTemplateRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, issueRequestTemplatesRoute, async ({ params }, request) => ({
    templates: await listIssueRequestTemplates(deps, requireActor(request), params.requestNumber),
  }));
  serve(app, issueRequestTemplateRoute, async ({ params }, request) =>
    renderIssueRequestTemplate(deps, requireActor(request), params.requestNumber, params.templateId),
  );
}
