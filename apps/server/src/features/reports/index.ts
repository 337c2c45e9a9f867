import type { ReportDefinition } from './definition.js';
import { accessLogReport } from './queries/accessLog.js';
import { activeTasksReport } from './queries/activeTasks.js';
import { closedRequestsReport } from './queries/closedRequests.js';
import { completedTasksReport } from './queries/completedTasks.js';
import { openRequestsReport } from './queries/openRequests.js';
import { paidInvoicesReport } from './queries/paidInvoices.js';
import { requestResultsReport } from './queries/requestResults.js';
import { usersReport } from './queries/users.js';

/** The reports of the menu (packages/core menu.ts), in its order; the Access Log is ours (issue 36). */
export const REPORTS: readonly ReportDefinition[] = [
  completedTasksReport,
  activeTasksReport,
  closedRequestsReport,
  openRequestsReport,
  paidInvoicesReport,
  requestResultsReport,
  usersReport,
  accessLogReport,
];
