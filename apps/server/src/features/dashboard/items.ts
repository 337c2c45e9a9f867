import { type DashboardItem, WORKFLOW_TASK_TYPES } from '@dossier/core';
import type { DashboardTile, TileRow } from './repository.js';

// The rows of the tiles as the client lists them (Task, Correspondence, Result,
// Request), each tagged with its $type so the page picks the right line layout.

export const DASHBOARD_TASK_TYPES = WORKFLOW_TASK_TYPES;

const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : null);
const text = (value: unknown) => (typeof value === 'string' ? value : null);

export function toDashboardItem(tile: DashboardTile, row: TileRow, now: Date): DashboardItem {
  switch (tile) {
    case 'activeTasks':
      return {
        $type: 'task',
        taskId: row.id,
        type: String(row.type),
        subject: String(row.subject),
        requestNumber: row.request_number,
        messageId: text(row.message_id),
        applicantName: row.applicant_name,
        triggeredAt: iso(row.triggered_at) ?? '',
        dueAt: iso(row.due_at),
        isOverdue: row.due_at instanceof Date && row.due_at < now,
        markedInProgressAt: iso(row.marked_in_progress_at),
        isAssignedTo: text(row.assigned_to),
        isAssignedToDisplayName: text(row.assigned_to_name),
      };
    case 'correspondence':
      return {
        $type: 'correspondence',
        messageId: row.id,
        kind: String(row.kind),
        requestNumber: String(row.request_number),
        applicantName: row.applicant_name,
        subject: text(row.subject),
        isUrgentNote: row.is_urgent_note === true,
        issueRequestMethod: text(row.issue_request_method),
        messageDeliveryStatus: text(row.message_delivery_status),
        createdAt: iso(row.created_at) ?? '',
        createdByDisplayName: text(row.created_by_name),
      };
    case 'results':
      return {
        $type: 'result',
        resultId: row.id,
        state: String(row.state),
        requestNumber: String(row.request_number),
        subject: row.applicant_name,
        fileName: text(row.file_name),
        createdAt: iso(row.created_at) ?? '',
        qualityAssuredAt: iso(row.quality_assured_at),
      };
    default:
      return {
        $type: 'request',
        requestNumber: String(row.request_number),
        scope: String(row.scope),
        status: String(row.status),
        applicantName: String(row.applicant_name),
        recipientName: String(row.recipient_name),
        submittedAt: iso(row.submitted_at) ?? '',
        closedAt: iso(row.closed_at),
        lastActivityAt: iso(row.last_activity_at) ?? '',
      };
  }
}
