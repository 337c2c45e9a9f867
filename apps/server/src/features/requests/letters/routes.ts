import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../../app.js';
import { requireActor } from '../../auth/index.js';
import { listIssueRequestTemplates, renderIssueRequestTemplate } from './templates.js';

// GET /requests/{n}/actions/issueRequest/templates[/{templateId}] (issueRequest panel).

const params = z.object({ requestNumber: z.string().max(20) });
const templateParams = params.extend({ templateId: z.string().min(1).max(200) });

export function issueRequestTemplateRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/requests/:requestNumber/actions/issueRequest/templates',
    { schema: { params } },
    async (request) => ({
      templates: await listIssueRequestTemplates(deps, requireActor(request), request.params.requestNumber),
    }),
  );
  r.get(
    '/requests/:requestNumber/actions/issueRequest/templates/:templateId',
    { schema: { params: templateParams } },
    async (request) =>
      renderIssueRequestTemplate(
        deps,
        requireActor(request),
        request.params.requestNumber,
        request.params.templateId,
      ),
  );
}
