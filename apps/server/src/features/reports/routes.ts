import { fieldErrorsOf, reportRoutesOf } from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readerOf } from '../../audit/accessLog.js';
import type { JsonObject } from '../../db/jsonColumns.js';
import type { AppDeps } from '../../http/deps.js';
import { badRequest } from '../../http/errors.js';
import { sendRefusalPage, sendSignedInPage } from '../../http/pageView.js';
import { FILE_CONTENT_SECURITY_POLICY } from '../../http/securityHeaders.js';
import { serve } from '../../http/serve.js';
import { requireSignedIn } from '../../http/views.js';
import { requireActor } from '../auth/index.js';
import type { ReportDefinition } from './definition.js';
import { REPORTS } from './index.js';
import { exportReportCsv } from './queries/csvExport.js';
import { filtersOf, type ReportFilters, type ReportQuery, reportQuerySchema } from './queries/filters.js';
import { getReportView, runReport } from './service.js';

// Per report: GET {path} is the page (or, with export=csv, the export), GET
// {path}/filter answers the summary table (or, with export=csv, the export) for the Run Report form.
// The page itself ignores its filters (the browser reads them from the address and runs the report
// through /filter, which shows a bad one beside its field), so a shared address with a mistyped date
// still opens the page; only its export checks them here.

/**
 * An export's filter as the access log keeps it: never a text that names a person. The log cannot
 * be changed, so an applicant's name typed into a filter would outlive their erasure; it is kept as
 * "given" only (a hash of a name would still be theirs: names are few enough to try them all).
 */
export function loggedFilter(filters: ReportFilters): JsonObject {
  const { applicant, ...kept } = filters;
  return { ...JSON.parse(JSON.stringify(kept)), ...(applicant ? { applicant: 'given' } : {}) };
}

async function sendCsv(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  report: ReportDefinition,
  q: ReportQuery,
) {
  const actor = requireActor(request);
  const filters = filtersOf(q);
  // An export whose lines name applicants is one access log entry: its filter and row count.
  const namesApplicants = report.exportColumns.some((c) => c.key === 'applicant');
  const { fileName, stream } = await exportReportCsv(
    deps.db,
    actor,
    report,
    filters,
    deps.views.features,
    (rows) => {
      if (!namesApplicants) return;
      deps.accessLog.record({
        reader: readerOf(actor),
        what: 'export',
        via: 'export',
        detail: { report: report.name, filter: loggedFilter(filters), rows },
        address: request.ip,
      });
    },
  );
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .header('cache-control', 'no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
    .send(stream);
}

export function reportRoutes(app: FastifyInstance, deps: AppDeps): void {
  for (const report of REPORTS) {
    const routes = reportRoutesOf(report.path);
    serve(app, routes.page, async ({ query }, request, reply) => {
      if (query.export !== undefined) {
        if (!requireSignedIn(request, reply)) return reply;
        const parsed = reportQuerySchema.safeParse(query);
        if (!parsed.success)
          throw badRequest('Some filters are invalid.', fieldErrorsOf(parsed.error.issues));
        if (report.readsAccessLog) await deps.accessLog.flush();
        try {
          return await sendCsv(deps, request, reply, report, parsed.data);
        } catch (error) {
          // An export link opened in a tab without the permission: the Access Denied page.
          return sendRefusalPage(request, reply, deps.views, error);
        }
      }
      return sendSignedInPage(request, reply, deps.views, () =>
        getReportView(deps.db, requireActor(request), report, deps.views.features),
      );
    });
    serve(app, routes.filter, async ({ query }, request, reply) => {
      if (report.readsAccessLog) await deps.accessLog.flush();
      if (query.export === 'csv') return sendCsv(deps, request, reply, report, query);
      return runReport(deps.db, requireActor(request), report, filtersOf(query), deps.views.features);
    });
  }
}
