import {
  renderRichTextTemplate,
  renderTemplate,
  sanitizeRichText,
  templatePreviewRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { permissionFirst } from '../auth/index.js';
import { assertCanView, findConfiguration, requireConfigurationViewer } from '../configuration/index.js';
import { loadLetterContext } from '../requests/index.js';
import { OPTIONS } from '../workflowMail/index.js';
import { newestVisibleRequest } from './repository.js';

/**
 * A template as it would read for a real request: the one on the screen, rendered over the data
 * of the newest request of the configuration's scope that the caller may see (the data the letters
 * and workflow mails use). Answers requestNumber null when there is none.
 */
export function templatePreviewRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(
    app,
    templatePreviewRoute,
    async ({ params, body: input }, request) => {
      const actor = requireConfigurationViewer(request);
      const configuration = await findConfiguration(deps.db, params.c);
      if (!configuration) throw notFound(`There is no configuration ${params.c}.`);
      assertCanView(actor, configuration.scopePath);
      const row = await newestVisibleRequest(deps.db, actor, configuration.scopePath);
      if (!row) return { requestNumber: null, subject: null, body: null };
      const { templateData } = await loadLetterContext(deps.db, deps.config, actor, row);
      const body = sanitizeRichText(
        renderRichTextTemplate(sanitizeRichText(input.body), templateData, OPTIONS),
      );
      const subject = input.subject?.trim()
        ? renderTemplate(input.subject, templateData, OPTIONS).replace(/\s+/g, ' ').trim()
        : null;
      return { requestNumber: row.request_number, subject, body };
    },
    { onRequest: permissionFirst('configuration:view') },
  );
}
