import {
  acceptMessageSenderRoute,
  shareMessageWithSenderRoute,
  stopSharingMessageWithSenderRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { acceptMessageSender, setMessageSharedWithSender } from './service.js';

// A note's edit (POST /requests/{n}/correspondence/{messageId}) is the request page's route
// (requestPage/routes.ts): it may answer the page.
export function correspondenceRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, acceptMessageSenderRoute, async ({ params }, request) =>
    acceptMessageSender(deps, requireActor(request), params.requestNumber, params.messageId),
  );
  // Share with sender, and its undoing (issue 32): the request page's correspondence entry offers them.
  serve(app, shareMessageWithSenderRoute, async ({ params }, request) =>
    setMessageSharedWithSender(deps, requireActor(request), params.requestNumber, params.messageId, true),
  );
  serve(app, stopSharingMessageWithSenderRoute, async ({ params }, request) =>
    setMessageSharedWithSender(deps, requireActor(request), params.requestNumber, params.messageId, false),
  );
}
