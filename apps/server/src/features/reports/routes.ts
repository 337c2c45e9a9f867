import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../app.js';
import { requireActor } from '../auth/policy.js';
import { sendSignedInPage } from '../users/pageView.js';
import { exportReportCsv } from './csvExport.js';
import type { ReportDefinition } from './definition.js';
import { filtersOf, type ReportQuery, reportQuerySchema } from './filters.js';
import { REPORTS } from './index.js';
import { getReportView, runReport } from './service.js';

// Per report (spec 2 "Reports"): GET {path} is the page (or, with export=csv, the export), GET
// {path}/filter answers the summary table (or, with export=csv, the export) for the Run Report form.

async function sendCsv(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  report: ReportDefinition,
  q: ReportQuery,
) {
  const { fileName, stream } = await exportReportCsv(deps.db, requireActor(request), report, filtersOf(q));
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .send(stream);
}

export function reportRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const report of REPORTS) {
    r.get(report.path, { schema: { querystring: reportQuerySchema } }, async (request, reply) => {
      if (request.query.export === 'csv') return sendCsv(deps, request, reply, report, request.query);
      return sendSignedInPage(request, reply, deps.views, () =>
        getReportView(deps.db, requireActor(request), report),
      );
    });
    r.get(`${report.path}/filter`, { schema: { querystring: reportQuerySchema } }, async (request, reply) => {
      if (request.query.export === 'csv') return sendCsv(deps, request, reply, report, request.query);
      return runReport(deps.db, requireActor(request), report, filtersOf(request.query));
    });
  }
}
