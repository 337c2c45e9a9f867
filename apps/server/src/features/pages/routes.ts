import {
  contactPageRoute,
  helpPageRoute,
  isUnparseableRichText,
  type RichTextDoc,
  type RichTextPageView,
  sanitizeRichText,
} from '@dossier/core';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { sendView } from '../../http/views.js';
import { getEffectiveTemplate } from '../configuration/index.js';
import { DEFAULT_PAGE_BODIES } from './content.js';

export function pageRoutes(app: FastifyInstance, deps: AppDeps): void {
  // The home page '/' is the home feature's (features/home).
  // Contact and help are readable without signing in: a locked-out user needs them most.
  serve(app, contactPageRoute, async (_input, request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'richTextPage',
      title: 'Contact Us',
      body: await pageBody(
        deps,
        request.log,
        request.actor?.scope ?? '/',
        'contactUsPage',
        DEFAULT_PAGE_BODIES.contact,
      ),
    } satisfies RichTextPageView),
  );
  serve(app, helpPageRoute, async (_input, request, reply) =>
    sendView(request, reply, deps.views, {
      $type: 'richTextPage',
      title: 'Help',
      body: await pageBody(
        deps,
        request.log,
        request.actor?.scope ?? '/',
        'helpAndSupportPage',
        DEFAULT_PAGE_BODIES.help,
      ),
    } satisfies RichTextPageView),
  );
}

/** The body of the effective template of the usage for the user's scope; the built-in one without. */
async function pageBody(
  deps: AppDeps,
  log: FastifyBaseLogger,
  scopePath: string,
  usage: 'contactUsPage' | 'helpAndSupportPage',
  fallback: RichTextDoc,
): Promise<RichTextDoc> {
  const template = await getEffectiveTemplate(deps.db, scopePath, usage);
  if (template && isUnparseableRichText(template.data.body)) {
    log.warn({ usage, entry: template.id }, 'unparseable rich text treated as empty');
  }
  const body = template ? sanitizeRichText(template.data.body) : undefined;
  return body && body.content.length > 0 ? body : fallback;
}
