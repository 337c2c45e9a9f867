import type { ColumnType, Generated } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

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
}

export interface UserRolesTable {
  id: Generated<string>;
  user_id: string;
  role: string;
  external_reference: string | null;
  scope: string;
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
}

export interface SigninFailuresTable {
  id: Generated<string>;
  ip: string;
  username: string;
  failed_at: Timestamp;
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
  payload: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
  /** Migration 0014: not yet reacted to by the workflow engine. */
  workflow_pending: Generated<boolean>;
}

/** Migration 0014: the days an automatic reminder went out for a task. */
export interface WorkflowRemindersTable {
  task_id: string;
  sent_on: ColumnType<string, string, string>;
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
  attachments: ColumnType<unknown, string | undefined, string>;
  /** The request the mail is about, if any (migration 0021): failures and replies find it. */
  request_number: string | null;
  /** Whose mail it is (migration 0023): the request's or the user's scope, '/' when neither. */
  scope: Generated<string>;
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

type Json = ColumnType<unknown, string, string>;

export interface RecipientsTable {
  id: Generated<string>;
  /** Migration 0073: the scope that owns the entry; its editors (and those above) change it. */
  scope: Generated<string>;
  version: Generated<number>;
  disabled: Generated<boolean>;
  name: string;
  phone: string;
  fax: string | null;
  email: string | null;
  web_site_url: string | null;
  street_address: string | null;
  postal_address: string | null;
  country: string | null;
  notes: string | null;
  tags: Json;
  attachments: Json;
  contacts: Json;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface RecipientVersionsTable {
  recipient_id: string;
  version: number;
  data: Json;
  created_at: Timestamp;
  created_by: string | null;
}

export interface PayeesTable {
  id: Generated<string>;
  /** Migration 0073: the scope that owns the entry; its editors (and those above) change it. */
  scope: Generated<string>;
  version: Generated<number>;
  disabled: Generated<boolean>;
  name: string;
  reference_number: string | null;
  email: string | null;
  bank_account: string | null;
  currency: string;
  foreign_reference_label: string | null;
  foreign_reference_url: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface ConfigurationsTable {
  id: string;
  scope_path: string;
  name: string;
  order: Generated<number>;
  is_default: Generated<boolean>;
  is_disabled: Generated<boolean>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface ConfigurationEntriesTable {
  configuration_id: string;
  id: string;
  parent_id: string;
  type: string;
  name: string;
  order: Generated<number>;
  is_default: Generated<boolean>;
  is_disabled: Generated<boolean>;
  data: ColumnType<unknown, string, string>;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface ConfigurationSecretsTable {
  configuration_id: string;
  entry_id: string;
  private_key: string;
  created_at: Timestamp;
}

export interface FilesTable {
  key: string;
  name: string;
  content_type: string;
  declared_size: string | number;
  size: string | number | null;
  sha256: string | null;
  public_read: Generated<boolean>;
  classification: string | null;
  owner_type: string | null;
  owner_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  uploaded_at: NullableTimestamp;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: Timestamp;
}

export interface SsoLoginsTable {
  state: string;
  code_verifier: string;
  nonce: string;
  return_url: string;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<string>;
  configuration_id: string;
  entry_id: string;
  event_type: string;
  url: string;
  payload: ColumnType<unknown, string, string>;
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
  expires_at: Timestamp;
  used_at: Generated<Date>;
}

export interface RequestsTable {
  request_number: string;
  scope: string;
  status: Generated<'submitted' | 'open' | 'closed'>;
  submitted_on_behalf_of: string | null;
  reference_number: string | null;
  external_user_references: Generated<string[]>;
  applicant: Json;
  applicant_name: string;
  applicant_date_of_birth: ColumnType<string | null, string | null | undefined, string | null>;
  recipient: Json;
  recipient_id: string | null;
  recipient_name: string;
  content: Json;
  tags: ColumnType<unknown, string | undefined, string>;
  submitted_at: Timestamp;
  submitted_by: string | null;
  issued_at: NullableTimestamp;
  issue_method: string | null;
  closed_at: NullableTimestamp;
  closed_by: string | null;
  last_updated_at: Timestamp;
  last_updated_by: string | null;
  last_activity_at: Timestamp;
  version: Generated<number>;
  search: ColumnType<string, never, never>;
}

export interface RequestDraftsTable {
  id: Generated<string>;
  user_id: string;
  completed_step: Generated<number>;
  data: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CorrespondenceTable {
  id: Generated<string>;
  request_number: string;
  kind: 'note' | 'issuedRequest' | 'message';
  is_urgent_note: Generated<boolean>;
  issue_request_method: string | null;
  from_address: ColumnType<unknown, string | null | undefined, string | null>;
  to_address: ColumnType<unknown, string | null | undefined, string | null>;
  subject: string | null;
  body: Json;
  attachments: ColumnType<unknown, string | undefined, string>;
  message_id: string | null;
  mail_outbox_id: string | null;
  message_delivery_status: string | null;
  /** Migration 0075: a message matched by number from an address not the recipient's. */
  unverified_sender: Generated<boolean>;
  created_at: Timestamp;
  created_by: string | null;
  updated_at: NullableTimestamp;
  updated_by: string | null;
}

/** A fetch of a result's file (migration 0076). */
export interface FileDownloadsTable {
  id: Generated<string>;
  file_key: string;
  request_number: string;
  user_id: string;
  by_sender: boolean;
  downloaded_at: Generated<Date>;
}

export interface RequestResultsTable {
  id: Generated<string>;
  request_number: string;
  file_key: string;
  tags: ColumnType<unknown, string | undefined, string>;
  item_types: ColumnType<unknown, string | undefined, string>;
  created_at: Timestamp;
  created_by: string | null;
  quality_assured_at: NullableTimestamp;
  quality_assured_by: string | null;
  quality_assurance_skipped: Generated<boolean>;
  downloaded_at: NullableTimestamp;
  downloaded_by: string | null;
  discarded_at: NullableTimestamp;
  discarded_by: string | null;
}

export interface RequestInvoicesTable {
  id: Generated<string>;
  request_number: string;
  file_key: string;
  tags: ColumnType<unknown, string | undefined, string>;
  notice: string | null;
  foreign_reference: ColumnType<unknown, string | null | undefined, string | null>;
  amount: string | number | null;
  amount_exclusive_tax: string | number | null;
  tax: string | number | null;
  currency: string | null;
  created_at: Timestamp;
  created_by: string | null;
  paid_at: NullableTimestamp;
  /** When (and by whom) the payments reached the amount: the invoice is paid. */
  paid_by: string | null;
  payment_confirmed_at: NullableTimestamp;
  remittance_advice_key: string | null;
  discarded_at: NullableTimestamp;
  discarded_by: string | null;
}

/** Migration 0028: one payment of an invoice (part or full); the invoice's amounts stay as billed. */
export interface InvoicePaymentsTable {
  id: Generated<string>;
  invoice_id: string;
  paid_at: Timestamp;
  paid_by: string | null;
  payee_id: string | null;
  payee_name: string;
  payee_reference_number: string | null;
  payee_email: string | null;
  method: string;
  amount_exclusive_tax: string | number;
  tax: string | number;
  amount: string | number;
  currency: string;
  name_on_card: string | null;
  bank_account: string | null;
  invoice_reference_number: string | null;
  remittance_advice_key: string | null;
}

/** Migration 0016: every message received by mail in, matched or not. */
export interface InboxMessagesTable {
  id: Generated<string>;
  scope: Generated<string>;
  message_id: string | null;
  in_reply_to: string | null;
  references: ColumnType<string[], string[] | undefined, string[]>;
  from_address: ColumnType<unknown, string | undefined, string>;
  from_email: Generated<string>;
  to_addresses: ColumnType<unknown, string | undefined, string>;
  subject: Generated<string>;
  body_text: Generated<string>;
  body_html: string | null;
  received_at: Timestamp;
  raw_file_key: string;
  raw_size: string | number;
  flag_reason: string | null;
  attachments: ColumnType<unknown, string | undefined, string>;
  search: ColumnType<string, never, never>;
}

/** Migration 0016: a message linked to a request; unlinked_at set once unlinked. */
export interface InboxMessageLinksTable {
  id: Generated<string>;
  message_id: string;
  request_number: string;
  correspondence_id: string | null;
  linked_at: Timestamp;
  linked_by: string | null;
  unlinked_at: NullableTimestamp;
  unlinked_by: string | null;
}

/** Migration 0024: a polled IMAP mailbox and the highest UID stored under its UIDVALIDITY. */
export interface ImapMailboxesTable {
  mailbox: string;
  uid_validity: string;
  last_uid: ColumnType<string, string | number | undefined, string | number>;
  polled_at: NullableTimestamp;
  last_error: string | null;
}

/** Migration 0026: completed tasks counted per day pair, kept by triggers on tasks (reports). */
export interface TaskCompletionDaysTable {
  completed_on: ColumnType<string, string, string>;
  scope: string;
  type: string;
  completed_by: string;
  triggered_on: ColumnType<string, string, string>;
  overdue: boolean;
  n: number;
}

export interface Database {
  users: UsersTable;
  files: FilesTable;
  app_secrets: AppSecretsTable;
  sso_logins: SsoLoginsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  rate_events: RateEventsTable;
  user_roles: UserRolesTable;
  role_claims: RoleClaimsTable;
  sessions: SessionsTable;
  signin_failures: SigninFailuresTable;
  notifications: NotificationsTable;
  tasks: TasksTable;
  task_completion_days: TaskCompletionDaysTable;
  task_skills: TaskSkillsTable;
  presence: PresenceTable;
  workflow_reminders: WorkflowRemindersTable;
  events: EventsTable;
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
  invoice_payments: InvoicePaymentsTable;
  api_token_ids: ApiTokenIdsTable;
  inbox_messages: InboxMessagesTable;
  inbox_message_links: InboxMessageLinksTable;
  imap_mailboxes: ImapMailboxesTable;
}
