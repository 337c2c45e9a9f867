import { renderRichTextTemplate, renderTemplate, sanitizeRichText } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { notFound } from '../../http/errors.js';
import { permissionFirst } from '../auth/index.js';
import { assertCanView, findConfiguration, requireConfigurationViewer } from '../configuration/index.js';
import { loadLetterContext } from '../requests/index.js';
import { OPTIONS } from '../workflowMail/index.js';
import { newestVisibleRequest } from './repository.js';

const previewBody = z.object({
  subject: z.string().max(2000).optional(),
  /** The template's body as on the screen (rich text), which may not be saved yet. */
  body: z.unknown().optional(),
});

/**
 * A template as it would read for a real request: the one on the screen, rendered over the data
 * of the newest request of the configuration's scope that the caller may see (the data the letters
 * and workflow mails use). Answers requestNumber null when there is none.
 */
export function templatePreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/admin/configuration/edit/:c/template-preview',
    {
      onRequest: permissionFirst('configuration:view'),
      schema: { params: z.object({ c: z.string().max(100) }), body: previewBody },
    },
    async (request) => {
      const actor = requireConfigurationViewer(request);
      const configuration = await findConfiguration(deps.db, request.params.c);
      if (!configuration) throw notFound(`There is no configuration ${request.params.c}.`);
      assertCanView(actor, configuration.scopePath);
      const row = await newestVisibleRequest(deps.db, actor, configuration.scopePath);
      if (!row) return { requestNumber: null, subject: null, body: null };
      const { templateData } = await loadLetterContext(deps.db, deps.config, actor, row);
      const body = sanitizeRichText(
        renderRichTextTemplate(sanitizeRichText(request.body.body), templateData, OPTIONS),
      );
      const subject = request.body.subject?.trim()
        ? renderTemplate(request.body.subject, templateData, OPTIONS).replace(/\s+/g, ' ').trim()
        : null;
      return { requestNumber: row.request_number, subject, body };
    },
  );
}
