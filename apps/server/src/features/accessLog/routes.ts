import { applicantDisclosuresRoute, requestAccessRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { serve } from '../../http/serve.js';
import { requireActor } from '../auth/index.js';
import { getApplicantDisclosuresPdf, getRequestAccess } from './service.js';

// The access log as its readers see it: the request page's Access tab, and the accounting of
// disclosures of the request's applicant (a PDF).

export function accessLogRoutes(app: FastifyInstance, deps: AppDeps): void {
  // Each read of the log first writes this instance's queue (audit/accessLog.ts), so it shows the
  // reads up to the moment, the reader's own among them.
  serve(app, requestAccessRoute, async ({ params, query }, request) => {
    await deps.accessLog.flush();
    return getRequestAccess(deps.db, requireActor(request), params.requestNumber, query);
  });

  serve(app, applicantDisclosuresRoute, async ({ params }, request, reply) => {
    await deps.accessLog.flush();
    const { fileName, pdf } = await getApplicantDisclosuresPdf(
      deps.db,
      requireActor(request),
      params.requestNumber,
    );
    return reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(pdf));
  });
}
