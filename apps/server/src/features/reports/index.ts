import { activeTasksReport } from './activeTasks.js';
import { closedRequestsReport } from './closedRequests.js';
import { completedTasksReport } from './completedTasks.js';
import type { ReportDefinition } from './definition.js';
import { openRequestsReport } from './openRequests.js';
import { paidInvoicesReport } from './paidInvoices.js';
import { requestResultsReport } from './requestResults.js';
import { usersReport } from './users.js';

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
