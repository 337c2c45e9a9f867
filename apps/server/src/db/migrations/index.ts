import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './20261122_0001_foundation.js';
import * as configuration from './20261122_0002_configuration.js';
import * as accounts from './20261122_0003_accounts.js';
import * as files from './20261122_0004_files.js';
import * as mailDelivery from './20261122_0005_mail_delivery.js';
import * as sso from './20261122_0006_sso.js';
import * as webhookDeliveries from './20261122_0007_webhook_deliveries.js';
import * as rateEvents from './20261122_0008_rate_events.js';
import * as requests from './20261122_0009_requests.js';
import * as applicantSearch from './20261122_0010_applicant_search.js';
import * as mailAttachments from './20261122_0012_mail_attachments.js';
import * as taskDueFixed from './20261122_0013_task_due_fixed.js';
import * as workflow from './20261122_0014_workflow.js';
import * as presence from './20261122_0015_presence.js';
import * as inbox from './20261122_0016_inbox.js';
import * as dashboard from './20261122_0017_dashboard.js';
import * as reports from './20261122_0018_reports.js';
import * as apiTokenIds from './20261122_0019_api_token_ids.js';
import * as downloadList from './20261123_0020_download_list.js';
import * as outboxRequest from './20261123_0021_outbox_request.js';
import * as outboxListing from './20261123_0023_outbox_listing.js';
import * as imapMailboxes from './20261123_0024_imap_mailboxes.js';
import * as webhookAttempts from './20261123_0025_webhook_attempts.js';
import * as taskCompletionDays from './20261123_0026_task_completion_days.js';
import * as searchWalk from './20261123_0027_search_walk.js';
import * as roleClaims from './20261125_0070_role_claims.js';
import * as invoicePayments from './20261125_0071_invoice_payments.js';
import * as inboxScope from './20261125_0072_inbox_scope.js';
import * as directoryScope from './20261125_0073_directory_scope.js';
import * as pendingEmail from './20261125_0074_pending_email.js';
import * as unverifiedSender from './20261125_0075_unverified_sender.js';
import * as fileDownloads from './20261125_0076_file_downloads.js';
import * as home from './20261126_301_home.js';
import * as scim from './20261126_501_scim.js';
import * as requestContentSearch from './20261126_701_request_content_search.js';
import * as ssoLogout from './20261127_5001_sso_logout.js';
import * as resultDays from './20261127_6001_result_days.js';
import * as requestDays from './20261127_6002_request_days.js';
import * as invoiceScope from './20261127_6003_invoice_scope.js';
import * as userOpenTasks from './20261127_7001_user_open_tasks.js';
import * as resultStateStats from './20261127_7002_result_state_stats.js';
import * as contentSearchColumn from './20261128_1001_content_search_column.js';
import * as businessCalendar from './20261128_1002_business_calendar.js';
import * as requestStateOnRows from './20261128_8001_request_state_on_rows.js';
import * as sessionChangeNotify from './20261129_0001_session_change_notify.js';
import * as userScopeOpenTasks from './20261129_2001_user_scope_open_tasks.js';
import * as openTaskDays from './20261129_3001_open_task_days.js';
import * as fulltextIndex from './20261130_0001_fulltext_index.js';
import * as requestLexemes from './20261130_1001_request_lexemes.js';
import * as invoicePaidDays from './20261130_2001_invoice_paid_days.js';
import * as assignedTasksCover from './20261130_3001_assigned_tasks_cover.js';
import * as homeChangeNotify from './20261130_4001_home_change_notify.js';
import * as fulltextMonths from './20261201_0001_fulltext_months.js';
import * as ssoUnlinkAndLogoutTokens from './20261202_0001_sso_unlink_and_logout_tokens.js';
import * as sharedWithSender from './20261202_3201_shared_with_sender.js';
import * as secondFactors from './20261202_4001_second_factors.js';
import * as sessionNotifyPasswordChange from './20261202_5001_session_notify_password_change.js';
import * as homeVisitPause from './20261202_5002_home_visit_pause.js';
import * as recipientAccess from './20261202_6001_recipient_access.js';
import * as accessLog from './20261202_7001_access_log.js';
import * as retention from './20261202_8001_retention.js';
import * as passkeys from './20261202_9001_passkeys.js';
import * as sessionAuthMethod from './20261202_9002_session_auth_method.js';
import * as rememberedDevices from './20261202_9003_remembered_devices.js';
import * as challengeSso from './20261202_9004_challenge_sso.js';
import * as recipientAccessSealed from './20261203_1001_recipient_access_sealed.js';
import * as outboxTextAfterSend from './20261203_1002_outbox_text_after_send.js';
import * as accessLogRetention from './20261203_3001_access_log_retention.js';
import * as legalHoldIndex from './20261203_3002_legal_hold_index.js';
import * as notificationsTarget from './20261203_4001_notifications_target.js';
import * as accessLogDefaultRetention from './20261204_1001_access_log_default_retention.js';

// Migrations are listed here rather than read from the folder so the bundled server carries them.
// Never edit a migration that has landed; add a new one.
const migrations: Record<string, Migration> = {
  '20261122_0001_foundation': foundation,
  '20261122_0002_configuration': configuration,
  '20261122_0003_accounts': accounts,
  '20261122_0004_files': files,
  '20261122_0005_mail_delivery': mailDelivery,
  '20261122_0006_sso': sso,
  '20261122_0007_webhook_deliveries': webhookDeliveries,
  '20261122_0008_rate_events': rateEvents,
  '20261122_0009_requests': requests,
  '20261122_0010_applicant_search': applicantSearch,
  '20261122_0012_mail_attachments': mailAttachments,
  '20261122_0013_task_due_fixed': taskDueFixed,
  '20261122_0014_workflow': workflow,
  '20261122_0015_presence': presence,
  '20261122_0016_inbox': inbox,
  '20261122_0017_dashboard': dashboard,
  '20261122_0018_reports': reports,
  '20261122_0019_api_token_ids': apiTokenIds,
  '20261123_0020_download_list': downloadList,
  '20261123_0021_outbox_request': outboxRequest,
  '20261123_0023_outbox_listing': outboxListing,
  '20261123_0024_imap_mailboxes': imapMailboxes,
  '20261123_0025_webhook_attempts': webhookAttempts,
  '20261123_0026_task_completion_days': taskCompletionDays,
  '20261123_0027_search_walk': searchWalk,
  '20261125_0070_role_claims': roleClaims,
  '20261125_0071_invoice_payments': invoicePayments,
  '20261125_0072_inbox_scope': inboxScope,
  '20261125_0073_directory_scope': directoryScope,
  '20261125_0074_pending_email': pendingEmail,
  '20261125_0075_unverified_sender': unverifiedSender,
  '20261125_0076_file_downloads': fileDownloads,
  '20261126_301_home': home,
  '20261126_701_request_content_search': requestContentSearch,
  '20261126_501_scim': scim,
  '20261127_5001_sso_logout': ssoLogout,
  '20261127_6001_result_days': resultDays,
  '20261127_6002_request_days': requestDays,
  '20261127_6003_invoice_scope': invoiceScope,
  '20261127_7001_user_open_tasks': userOpenTasks,
  '20261127_7002_result_state_stats': resultStateStats,
  '20261128_1001_content_search_column': contentSearchColumn,
  '20261128_1002_business_calendar': businessCalendar,
  '20261128_8001_request_state_on_rows': requestStateOnRows,
  '20261129_0001_session_change_notify': sessionChangeNotify,
  '20261129_2001_user_scope_open_tasks': userScopeOpenTasks,
  '20261129_3001_open_task_days': openTaskDays,
  '20261130_0001_fulltext_index': fulltextIndex,
  '20261130_1001_request_lexemes': requestLexemes,
  '20261130_2001_invoice_paid_days': invoicePaidDays,
  '20261130_3001_assigned_tasks_cover': assignedTasksCover,
  '20261130_4001_home_change_notify': homeChangeNotify,
  '20261201_0001_fulltext_months': fulltextMonths,
  '20261202_0001_sso_unlink_and_logout_tokens': ssoUnlinkAndLogoutTokens,
  '20261202_3201_shared_with_sender': sharedWithSender,
  '20261202_4001_second_factors': secondFactors,
  '20261202_5001_session_notify_password_change': sessionNotifyPasswordChange,
  '20261202_5002_home_visit_pause': homeVisitPause,
  '20261202_6001_recipient_access': recipientAccess,
  '20261202_7001_access_log': accessLog,
  '20261202_8001_retention': retention,
  '20261202_9001_passkeys': passkeys,
  '20261202_9002_session_auth_method': sessionAuthMethod,
  '20261202_9003_remembered_devices': rememberedDevices,
  '20261202_9004_challenge_sso': challengeSso,
  '20261203_1001_recipient_access_sealed': recipientAccessSealed,
  '20261203_1002_outbox_text_after_send': outboxTextAfterSend,
  '20261203_3001_access_log_retention': accessLogRetention,
  '20261203_3002_legal_hold_index': legalHoldIndex,
  '20261203_4001_notifications_target': notificationsTarget,
  '20261204_1001_access_log_default_retention': accessLogDefaultRetention,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
