import type { ReportDefinition } from './definition.js';
import { activeTasksReport } from './queries/activeTasks.js';
import { closedRequestsReport } from './queries/closedRequests.js';
import { completedTasksReport } from './queries/completedTasks.js';
import { openRequestsReport } from './queries/openRequests.js';
import { paidInvoicesReport } from './queries/paidInvoices.js';
import { requestResultsReport } from './queries/requestResults.js';
import { usersReport } from './queries/users.js';

/** The seven reports of the menu (packages/core menu.ts), in its order. */
export const REPORTS: readonly ReportDefinition[] = [
  completedTasksReport,
  activeTasksReport,
  closedRequestsReport,
  openRequestsReport,
  paidInvoicesReport,
  requestResultsReport,
  usersReport,
];
