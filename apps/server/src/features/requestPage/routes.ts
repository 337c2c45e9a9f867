import { MENTION_MIN_CHARS } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { badRequest } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { requireActor } from '../auth/index.js';
import { editCorrespondence } from '../correspondence/index.js';
import {
  buildRequestPreview,
  EDITABLE_PARTS,
  isRequestStaff,
  listRequestHistory,
  loadVisibleRequest,
  saveRequestPart,
  suggestMentions,
} from '../requests/index.js';
import { buildRequestView } from './view.js';

// The request page and what it calls besides actions: the view, part edits, the hover preview,
// mention suggestions and older history. Every route loads the request through loadVisibleRequest
// (404 unknown, 403 not visible) before anything else.

const params = z.object({ requestNumber: z.string().max(20) });
const partParams = params.extend({ part: z.enum(EDITABLE_PARTS) });
const entryParams = params.extend({ messageId: z.string().max(100) });
const answerQuery = z.object({ answer: z.enum(['request']).optional() });
const mentionQuery = z.object({ prefix: z.string().max(100).default('') });
const historyQuery = z.object({
  before: z
    .string()
    .regex(/^\d{1,19}$/)
    .optional(),
});

export function requestRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/requests/:requestNumber', { schema: { params } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, async () => {
      const actor = requireActor(request);
      const row = await loadVisibleRequest(deps.db, actor, request.params.requestNumber);
      return buildRequestView(deps, actor, row);
    }),
  );

  r.post('/requests/:requestNumber/:part', { schema: { params: partParams } }, async (request) => {
    const actor = requireActor(request);
    await saveRequestPart(deps, actor, request.params.requestNumber, request.params.part, request.body);
    const row = await loadVisibleRequest(deps.db, actor, request.params.requestNumber);
    return buildRequestView(deps, actor, row);
  });

  // A note's edit answers { item }; asked with ?answer=request, the request view beside it, which
  // the request page puts in place with no second call.
  r.post(
    '/requests/:requestNumber/correspondence/:messageId',
    { schema: { params: entryParams, querystring: answerQuery } },
    async (request) => {
      const actor = requireActor(request);
      const { requestNumber, messageId } = request.params;
      const item = await editCorrespondence(deps, actor, requestNumber, messageId, request.body);
      if (request.query.answer !== 'request') return { item };
      const row = await loadVisibleRequest(deps.db, actor, requestNumber);
      return { item, ...(await buildRequestView(deps, actor, row)) };
    },
  );

  r.get('/requests/:requestNumber/preview', { schema: { params } }, async (request) => {
    const actor = requireActor(request);
    const row = await loadVisibleRequest(deps.db, actor, request.params.requestNumber);
    return buildRequestPreview(deps.db, row, isRequestStaff(actor, row));
  });

  r.get(
    '/requests/:requestNumber/mention-suggestions',
    { schema: { params, querystring: mentionQuery } },
    async (request) => {
      const row = await loadVisibleRequest(deps.db, requireActor(request), request.params.requestNumber);
      const prefix = request.query.prefix.trim();
      if (prefix.length < MENTION_MIN_CHARS)
        throw badRequest(`Type at least ${MENTION_MIN_CHARS} characters.`, {
          prefix: `Type at least ${MENTION_MIN_CHARS} characters.`,
        });
      return { suggestions: await suggestMentions(deps.db, row, prefix) };
    },
  );

  r.get(
    '/requests/:requestNumber/history',
    { schema: { params, querystring: historyQuery } },
    async (request) => {
      const actor = requireActor(request);
      const row = await loadVisibleRequest(deps.db, actor, request.params.requestNumber);
      return {
        history: await listRequestHistory(deps.db, row.request_number, {
          before: request.query.before,
          staff: isRequestStaff(actor, row),
        }),
      };
    },
  );
}
