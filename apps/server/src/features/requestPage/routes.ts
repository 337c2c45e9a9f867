import {
  editCorrespondenceRoute,
  MENTION_MIN_CHARS,
  mentionSuggestionsRoute,
  requestHistoryRoute,
  requestPageRoute,
  requestPreviewRoute,
  saveRequestPartRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AccessWhat, readerOf } from '../../audit/accessLog.js';
import type { AppDeps } from '../../http/deps.js';
import { badRequest } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { type Actor, requireActor } from '../auth/index.js';
import { editCorrespondence } from '../correspondence/index.js';
import {
  buildRequestPreview,
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

export function requestRoutes(app: FastifyInstance, deps: AppDeps): void {
  // A read of the request's personal data, once it was allowed and built: one access log entry.
  // A write that answers the page is not a read of its own (the page it changed was logged).
  const logRead = (request: FastifyRequest, actor: Actor, requestNumber: string, what: AccessWhat) =>
    deps.accessLog.record({ reader: readerOf(actor), what, via: 'page', requestNumber, address: request.ip });

  serve(app, requestPageRoute, async ({ params }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, async () => {
      const actor = requireActor(request);
      const row = await loadVisibleRequest(deps.db, actor, params.requestNumber);
      const view = await buildRequestView(deps, actor, row);
      logRead(request, actor, row.request_number, 'request');
      return view;
    }),
  );

  serve(app, saveRequestPartRoute, async ({ params, body }, request) => {
    const actor = requireActor(request);
    await saveRequestPart(deps, actor, params.requestNumber, params.part, body);
    const row = await loadVisibleRequest(deps.db, actor, params.requestNumber);
    return buildRequestView(deps, actor, row);
  });

  // A note's edit answers { item }; asked with ?answer=request, the request view beside it, which
  // the request page puts in place with no second call.
  serve(app, editCorrespondenceRoute, async ({ params, query, body }, request) => {
    const actor = requireActor(request);
    const { requestNumber, messageId } = params;
    const item = await editCorrespondence(deps, actor, requestNumber, messageId, body);
    if (query.answer !== 'request') return { item };
    const row = await loadVisibleRequest(deps.db, actor, requestNumber);
    return { item, ...(await buildRequestView(deps, actor, row)) };
  });

  serve(app, requestPreviewRoute, async ({ params }, request) => {
    const actor = requireActor(request);
    const row = await loadVisibleRequest(deps.db, actor, params.requestNumber);
    const preview = await buildRequestPreview(deps.db, row, isRequestStaff(actor, row));
    logRead(request, actor, row.request_number, 'preview');
    return preview;
  });

  serve(app, mentionSuggestionsRoute, async ({ params, query }, request) => {
    const row = await loadVisibleRequest(deps.db, requireActor(request), params.requestNumber);
    const prefix = query.prefix.trim();
    if (prefix.length < MENTION_MIN_CHARS)
      throw badRequest(`Type at least ${MENTION_MIN_CHARS} characters.`, {
        prefix: `Type at least ${MENTION_MIN_CHARS} characters.`,
      });
    return { suggestions: await suggestMentions(deps.db, row, prefix) };
  });

  serve(app, requestHistoryRoute, async ({ params, query }, request) => {
    const actor = requireActor(request);
    const row = await loadVisibleRequest(deps.db, actor, params.requestNumber);
    const history = await listRequestHistory(deps.db, row.request_number, {
      before: query.before,
      staff: isRequestStaff(actor, row),
    });
    logRead(request, actor, row.request_number, 'history');
    return { history };
  });
}
