import {
  adminErasureRoute,
  adminRetentionRoute,
  eraseApplicantRoute,
  runRetentionRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { requireRetentionAdmin } from './policy.js';
import { runNow } from './runNow.js';
import { buildErasureView, buildRetentionView, eraseApplicant } from './service.js';

// The administrator's retention page (what the next run removes, and running it now) and the
// erasure of an applicant on request (issue 36).

// Who may is checked before the input is: another caller learns nothing from a 400. A page lets
// an anonymous browser through to be sent to the sign-in; a write needs the session first.
const adminsFirst = {
  onRequest: async (request: FastifyRequest) => {
    if (request.actor) requireRetentionAdmin(request.actor);
  },
};
const signedInAdminsFirst = {
  onRequest: async (request: FastifyRequest) => {
    requireRetentionAdmin(requireActor(request));
  },
};

export function retentionRoutes(app: FastifyInstance, deps: AppDeps): void {
  const ctx = { db: deps.db, storage: deps.files.storage };

  serve(app, adminRetentionRoute, async (_, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      buildRetentionView(ctx, requireRetentionAdmin(requireActor(request))),
    ),
  );

  serve(app, runRetentionRoute, async (_, request) => {
    const actor = requireActor(request);
    const within = requireRetentionAdmin(actor);
    await runNow(ctx, deps.jobs, actor, within);
    return buildRetentionView(ctx, within);
  });

  serve(
    app,
    adminErasureRoute,
    async ({ query }, request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        buildErasureView(deps.db, requireRetentionAdmin(requireActor(request)), query),
      ),
    adminsFirst,
  );

  serve(
    app,
    eraseApplicantRoute,
    async ({ body }, request) => {
      const actor = requireActor(request);
      return eraseApplicant(ctx, actor, requireRetentionAdmin(actor), body);
    },
    signedInAdminsFirst,
  );
}
