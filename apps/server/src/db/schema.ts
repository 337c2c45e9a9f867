import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type { JsonObject, MailAttachment } from './jsonColumns.js';
import type {
  BusinessCalendarTable,
  InvoicePaidDaysTable,
  OpenTaskDaysTable,
  RequestDaysTable,
  RequestLexemesTable,
  RequestResultDaysTable,
  TaskCompletionDaysTable,
  UserOpenTasksTable,
  UserScopeOpenTasksTable,
} from './schemaCounts.js';
import type {
  ConfigurationEntriesTable,
  ConfigurationSecretsTable,
  ConfigurationsTable,
  PayeesTable,
  RecipientsTable,
  RecipientVersionsTable,
} from './schemaDirectory.js';
import type {
  CorrespondenceTable,
  FileDownloadsTable,
  InboxMessageLinksTable,
  InboxMessagesTable,
  InvoicePaymentsTable,
  RecipientAccessesTable,
  RecipientSessionsTable,
  RequestDraftsTable,
  RequestInvoicesTable,
  RequestResultsTable,
  RequestsTable,
  RetentionRunsTable,
} from './schemaRequests.js';
import type {
  RecoveryCodesTable,
  RememberedDevicesTable,
  SecondFactorsTable,
  SigninChallengesTable,
  SigninFailuresTable,
  SsoLoginsTable,
  SsoLogoutTokensTable,
  SsoUnlinkedSubjectsTable,
  WebauthnChallengesTable,
} from './schemaSignIn.js';
import type {
  Bigint,
  DateColumn,
  NullableBigint,
  NullableTimestamp,
  RequiredTimestamp,
  Timestamp,
} from './schemaTypes.js';

export type * from './schemaCounts.js';
export type * from './schemaDirectory.js';
export type * from './schemaRequests.js';
export type * from './schemaSignIn.js';

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  phone: Generated<string>;
  alternate_phone: string | null;
  scope: string;
  country: string | null;
  language: string | null;
  address: string | null;
  password_hash: string | null;
  disabled: Generated<boolean>;
  password_must_change: Generated<boolean>;
  email_confirmed_at: NullableTimestamp;
  /** Migration 0074: a new address the user gave, kept apart until it is confirmed. */
  pending_email: Generated<string | null>;
  failed_signins: Generated<number>;
  locked_until: NullableTimestamp;
  external_user_id: string | null;
  ip_range: string | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Migration 501 (SCIM): the provider's userName and externalId, the client that provisioned
   * the user, and who set external_user_id (a user id, or scim:<configuration>/<entry>). */
  scim_user_name: Generated<string | null>;
  scim_external_id: Generated<string | null>;
  scim_client: Generated<string | null>;
  external_id_set_by: Generated<string | null>;
  /** Deleted through SCIM: disabled and no longer a SCIM resource, kept for the audit trail. */
  scim_deleted_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface UserRolesTable {
  id: Generated<string>;
  user_id: string;
  role: string;
  external_reference: string | null;
  scope: string;
  /** Migration 501: made for a SCIM group's mapping, so SCIM may remove it again. */
  granted_by_scim: Generated<boolean>;
}

/** Migration 0070: external roles a user claimed for itself, waiting for an administrator. */
export interface RoleClaimsTable {
  id: Generated<string>;
  user_id: string;
  role: string;
  scope: string;
  external_reference: string | null;
  claimed_at: Generated<Date>;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  ip: string | null;
  user_agent: string | null;
  /** Of a session begun through single sign-on: the provider's ID token, subject and session id. */
  sso_id_token: string | null;
  /** Migration 20261202_2001: may only enrol a second factor its roles require. */
  must_enrol: Generated<boolean>;
  /** Migration 20261202_9002: how it was authenticated (core AUTH_METHODS). */
  auth_method: Generated<string>;
  sso_subject: string | null;
  sso_sid: string | null;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  target: string;
  text: string;
  created_by: string | null;
  created_at: Timestamp;
  acknowledged_at: NullableTimestamp;
}

/** Migration 301: the user's home page visits, one row per user (what changed since). */
export interface HomeVisitsTable {
  user_id: string;
  session_id: string;
  visit_started_at: RequiredTimestamp;
  previous_visit_at: NullableTimestamp;
  last_view_at: RequiredTimestamp;
}

export interface TasksTable {
  id: Generated<string>;
  type: string;
  subject: string;
  request_number: string | null;
  message_id: string | null;
  scope: string;
  notice: string | null;
  triggered_at: Timestamp;
  triggered_by: string | null;
  due_at: NullableTimestamp;
  completed_at: NullableTimestamp;
  completed_by: string | null;
  was_overdue: boolean | null;
  marked_in_progress_at: NullableTimestamp;
  marked_in_progress_by: string | null;
  assigned_to: string | null;
  due_fixed: Generated<boolean>;
  /** Migration 0014: what a workflow task is about ('result:12'); unique when set. */
  workflow_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 8001: the request's status, scope, external references and owners, kept by triggers
   * (the dashboard tiles filter by them without reading the request); null without a request. */
  request_status: ColumnType<string | null, never, never>;
  request_scope: ColumnType<string | null, never, never>;
  request_external_user_references: ColumnType<string[] | null, never, never>;
  request_submitted_by: ColumnType<string | null, never, never>;
  request_submitted_on_behalf_of: ColumnType<string | null, never, never>;
}

/** Migration 0014: per user and task type; no row means untrained and inactive. */
export interface TaskSkillsTable {
  user_id: string;
  task_type: string;
  level: 'untrained' | 'trained';
  status: 'inactive' | 'active';
  updated_at: Timestamp;
}

/** Migration 0015: one row per live connection, and the request page it shows. */
export interface PresenceTable {
  connection_id: string;
  user_id: string;
  request_number: string | null;
  seen_at: Timestamp;
}

export interface EventsTable {
  id: Generated<string>;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  actor: string | null;
  payload: JSONColumnType<JsonObject, string | undefined, string>;
  created_at: Timestamp;
  /** Migration 0014: not yet reacted to by the workflow engine. */
  workflow_pending: Generated<boolean>;
}

/**
 * Migration 20261202_7001: one row per read of a request's personal data (audit/accessLog.ts),
 * append-only (UPDATE, DELETE and TRUNCATE raise), partitioned by month of `at`.
 */
export interface AccessLogTable {
  id: Generated<string>;
  at: Timestamp;
  user_id: string | null;
  api_client: string | null;
  recipient_access_id: string | null;
  request_number: string | null;
  what: 'request' | 'history' | 'preview' | 'file' | 'export';
  via: 'page' | 'api' | 'export';
  file_key: string | null;
  detail: JSONColumnType<JsonObject | null, string | null | undefined, string | null>;
  address: string | null;
}

/** Migration 0014: the days an automatic reminder went out for a task. */
export interface WorkflowRemindersTable {
  task_id: string;
  sent_on: DateColumn;
  mail_outbox_id: string | null;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  attempts: Generated<number>;
  last_error: string | null;
  next_attempt_at: Timestamp;
  message_id: string | null;
  failed_at: NullableTimestamp;
  /** [{ fileKey, name, contentType }] read from file storage when sending (migration 0012). */
  attachments: JSONColumnType<MailAttachment[], string | undefined, string>;
  /** The request the mail is about, if any (migration 0021): failures and replies find it. */
  request_number: string | null;
  /** Whose mail it is (migration 0023): the request's or the user's scope, '/' when neither. */
  scope: Generated<string>;
  /** Migration 20261203_1002: the text kept once sent, for a mail carrying a secret (a passcode). */
  text_after_send: string | null;
}

export interface AccountTokensTable {
  id: string;
  user_id: string;
  purpose: string;
  created_at: Timestamp;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: NullableTimestamp;
  ip: string | null;
}

export interface FilesTable {
  key: string;
  name: string;
  content_type: string;
  declared_size: Bigint;
  size: NullableBigint;
  sha256: string | null;
  public_read: Generated<boolean>;
  classification: string | null;
  owner_type: string | null;
  owner_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  uploaded_at: NullableTimestamp;
  /** Migration 20261202_8001: when retention or an erasure removed the bytes from storage. */
  removed_at: NullableTimestamp;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  configuration_id: string;
  entry_id: string;
  event_type: string;
  url: string;
  payload: JSONColumnType<JsonObject>;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  created_at: Timestamp;
  last_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
}

/** Migration 0025: every attempt of a webhook delivery and the receiver's answer. */
export interface WebhookDeliveryAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempt: number;
  attempted_at: Timestamp;
  duration_ms: number | null;
  response_status: number | null;
  response_excerpt: string | null;
  error: string | null;
}

export interface RateEventsTable {
  id: Generated<string>;
  bucket: string;
  key: string;
  at: Timestamp;
}

export interface ApiTokenIdsTable {
  kid: string;
  jti: string;
  expires_at: RequiredTimestamp;
  used_at: Generated<Date>;
}

export interface ImapMailboxesTable {
  mailbox: string;
  uid_validity: string;
  last_uid: ColumnType<string, string | number | undefined, string | number>;
  polled_at: NullableTimestamp;
  last_error: string | null;
}

/** Migration 501: the bearer token of a SCIM client entry (its SHA-256 only). */
export interface ScimTokensTable {
  configuration_id: string;
  entry_id: string;
  token_hash: string;
  hint: string;
  created_by: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface ScimGroupsTable {
  id: Generated<string>;
  /** The client (scim:<configuration>/<entry>) whose group it is. */
  client: string;
  scope: string;
  display_name: string;
  external_id: string | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface ScimRoleGrantsTable {
  group_id: string;
  user_id: string;
  role: string;
  scope: string;
}

export interface Database {
  users: UsersTable;
  files: FilesTable;
  app_secrets: AppSecretsTable;
  sso_logins: SsoLoginsTable;
  sso_unlinked_subjects: SsoUnlinkedSubjectsTable;
  sso_logout_tokens: SsoLogoutTokensTable;
  second_factors: SecondFactorsTable;
  recovery_codes: RecoveryCodesTable;
  signin_challenges: SigninChallengesTable;
  webauthn_challenges: WebauthnChallengesTable;
  remembered_devices: RememberedDevicesTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  rate_events: RateEventsTable;
  user_roles: UserRolesTable;
  role_claims: RoleClaimsTable;
  sessions: SessionsTable;
  signin_failures: SigninFailuresTable;
  notifications: NotificationsTable;
  tasks: TasksTable;
  home_visits: HomeVisitsTable;
  task_completion_days: TaskCompletionDaysTable;
  invoice_paid_days: InvoicePaidDaysTable;
  open_task_days: OpenTaskDaysTable;
  business_calendar: BusinessCalendarTable;
  user_open_tasks: UserOpenTasksTable;
  user_scope_open_tasks: UserScopeOpenTasksTable;
  request_result_days: RequestResultDaysTable;
  request_days: RequestDaysTable;
  request_lexemes: RequestLexemesTable;
  task_skills: TaskSkillsTable;
  presence: PresenceTable;
  workflow_reminders: WorkflowRemindersTable;
  events: EventsTable;
  access_log: AccessLogTable;
  mail_outbox: MailOutboxTable;
  account_tokens: AccountTokensTable;
  recipients: RecipientsTable;
  recipient_versions: RecipientVersionsTable;
  payees: PayeesTable;
  configurations: ConfigurationsTable;
  configuration_entries: ConfigurationEntriesTable;
  configuration_secrets: ConfigurationSecretsTable;
  requests: RequestsTable;
  request_drafts: RequestDraftsTable;
  correspondence: CorrespondenceTable;
  request_results: RequestResultsTable;
  file_downloads: FileDownloadsTable;
  request_invoices: RequestInvoicesTable;
  recipient_accesses: RecipientAccessesTable;
  recipient_sessions: RecipientSessionsTable;
  invoice_payments: InvoicePaymentsTable;
  api_token_ids: ApiTokenIdsTable;
  inbox_messages: InboxMessagesTable;
  inbox_message_links: InboxMessageLinksTable;
  imap_mailboxes: ImapMailboxesTable;
  scim_tokens: ScimTokensTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_role_grants: ScimRoleGrantsTable;
  retention_runs: RetentionRunsTable;
}
