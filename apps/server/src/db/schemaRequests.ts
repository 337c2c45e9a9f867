import type { ColumnType, Generated, JSONColumnType } from 'kysely';
import type {
  Applicant,
  CorrespondenceAddress,
  ForeignReference,
  JsonObject,
  MailAddress,
  RequestContent,
  RequestRecipient,
  StoredAttachment,
  StoredInboxAttachment,
  StoredItemTypes,
  TagValues,
} from './jsonColumns.js';
import type {
  Bigint,
  NullableBigint,
  NullableTimestamp,
  RequiredTimestamp,
  Timestamp,
} from './schemaTypes.js';

// The tables of requests and what hangs off them: drafts, correspondence, results, invoices and
// their payments, downloads and incoming mail. The Database type in schema.ts lists them all.

export interface RequestsTable {
  request_number: string;
  scope: string;
  status: Generated<'submitted' | 'open' | 'closed'>;
  submitted_on_behalf_of: string | null;
  reference_number: string | null;
  external_user_references: Generated<string[]>;
  applicant: JSONColumnType<Applicant>;
  applicant_name: string;
  applicant_date_of_birth: ColumnType<Date | null, string | null | undefined, string | null>;
  recipient: JSONColumnType<RequestRecipient>;
  recipient_id: string | null;
  recipient_name: string;
  content: JSONColumnType<RequestContent>;
  tags: JSONColumnType<TagValues, string | undefined, string>;
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
  search: ColumnType<string | null, never, never>;
  /** Kept by a trigger from `content` (migration 20261128_1001). */
  content_search: ColumnType<string | null, never, never>;
  /** Migration 20261202_8001 (issue 36): retention done, and the legal hold that stops it. */
  files_removed_at: NullableTimestamp;
  de_identified_at: NullableTimestamp;
  legal_hold_at: NullableTimestamp;
  legal_hold_by: string | null;
  legal_hold_reason: string | null;
}

export interface RequestDraftsTable {
  id: Generated<string>;
  user_id: string;
  completed_step: Generated<number>;
  data: JSONColumnType<JsonObject, string | undefined, string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface CorrespondenceTable {
  id: Generated<string>;
  request_number: string;
  kind: 'note' | 'issuedRequest' | 'message';
  is_urgent_note: Generated<boolean>;
  issue_request_method: string | null;
  from_address: JSONColumnType<CorrespondenceAddress | null, string | null | undefined, string | null>;
  to_address: JSONColumnType<CorrespondenceAddress | null, string | null | undefined, string | null>;
  subject: string | null;
  body: JSONColumnType<{ type: 'richText' | 'html' | 'text'; content: unknown }>;
  attachments: JSONColumnType<StoredAttachment[], string | undefined, string>;
  message_id: string | null;
  mail_outbox_id: string | null;
  message_delivery_status: string | null;
  /** Migration 0075: a message matched by number from an address not the recipient's. */
  unverified_sender: Generated<boolean>;
  /** Migration 3201 (issue 32): a received message shared with the sender side, when and by whom. */
  shared_with_sender_at: NullableTimestamp;
  shared_with_sender_by: string | null;
  /** Migration 20261202_6001 (issue 34): sent in by the recipient on the recipient's page. */
  via_recipient_page: Generated<boolean>;
  created_at: Timestamp;
  created_by: string | null;
  updated_at: NullableTimestamp;
  updated_by: string | null;
  /** Migration 8001: the request's status, scope, external references and owners, kept by triggers
   * (the dashboard tiles filter by them without reading the request); null without a request. */
  request_status: ColumnType<string | null, never, never>;
  request_scope: ColumnType<string | null, never, never>;
  request_external_user_references: ColumnType<string[] | null, never, never>;
  request_submitted_by: ColumnType<string | null, never, never>;
  request_submitted_on_behalf_of: ColumnType<string | null, never, never>;
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
  tags: JSONColumnType<TagValues, string | undefined, string>;
  item_types: JSONColumnType<StoredItemTypes, string | undefined, string>;
  created_at: Timestamp;
  created_by: string | null;
  quality_assured_at: NullableTimestamp;
  quality_assured_by: string | null;
  quality_assurance_skipped: Generated<boolean>;
  downloaded_at: NullableTimestamp;
  downloaded_by: string | null;
  discarded_at: NullableTimestamp;
  discarded_by: string | null;
  /** Migration 8001: the request's status, scope, external references and owners, kept by triggers
   * (the dashboard tiles filter by them without reading the request); null without a request. */
  request_status: ColumnType<string | null, never, never>;
  request_scope: ColumnType<string | null, never, never>;
  request_external_user_references: ColumnType<string[] | null, never, never>;
  request_submitted_by: ColumnType<string | null, never, never>;
  request_submitted_on_behalf_of: ColumnType<string | null, never, never>;
}

export interface RequestInvoicesTable {
  id: Generated<string>;
  request_number: string;
  file_key: string;
  tags: JSONColumnType<TagValues, string | undefined, string>;
  notice: string | null;
  foreign_reference: JSONColumnType<ForeignReference | null, string | null | undefined, string | null>;
  amount: NullableBigint;
  amount_exclusive_tax: NullableBigint;
  tax: NullableBigint;
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
  /** Migration 6003: the request's scope, set and kept by triggers (reports group by it). */
  scope: Generated<string>;
}

/** Migration 0028: one payment of an invoice (part or full); the invoice's amounts stay as billed. */
export interface InvoicePaymentsTable {
  id: Generated<string>;
  invoice_id: string;
  paid_at: RequiredTimestamp;
  paid_by: string | null;
  payee_id: string | null;
  payee_name: string;
  payee_reference_number: string | null;
  payee_email: string | null;
  method: string;
  amount_exclusive_tax: Bigint;
  tax: Bigint;
  amount: Bigint;
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
  from_address: JSONColumnType<MailAddress, string | undefined, string>;
  from_email: Generated<string>;
  to_addresses: JSONColumnType<(MailAddress & { email: string })[], string | undefined, string>;
  subject: Generated<string>;
  body_text: Generated<string>;
  body_html: string | null;
  received_at: Timestamp;
  raw_file_key: string;
  raw_size: Bigint;
  flag_reason: string | null;
  attachments: JSONColumnType<StoredInboxAttachment[], string | undefined, string>;
  search: ColumnType<string | null, never, never>;
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

/** Migration 20261202_8001 (issue 36): a retention pass or an erasure; counts and numbers, no content. */
export interface RetentionRunsTable {
  id: Generated<string>;
  kind: 'scheduled' | 'manual' | 'erasure';
  started_at: Timestamp;
  finished_at: NullableTimestamp;
  actor: string | null;
  requested_by: string | null;
  reason: string | null;
  scopes: ColumnType<string[], string[] | undefined, string[]>;
  files_removed: Generated<number>;
  requests_de_identified: Generated<number>;
  request_numbers: ColumnType<string[], string[] | undefined, string[]>;
  left_requests: JSONColumnType<RetentionLeftRequest[], string | undefined, string>;
  /** Migration 20261203_3001: the access log's months (partitions) the run dropped. */
  access_log_months: ColumnType<string[], string[] | undefined, string[]>;
}

/** A request an erasure left as it was, and why. */
export interface RetentionLeftRequest {
  requestNumber: string;
  reason: 'open' | 'legalHold';
}

/** Migration 20261202_6001 (issue 34): the recipient's link and passcode of one issue of a request. */
export interface RecipientAccessesTable {
  id: Generated<string>;
  request_number: string;
  correspondence_id: string | null;
  token_hash: string;
  passcode_hash: string;
  method: string;
  sent_to: string;
  created_by: string | null;
  created_at: Timestamp;
  expires_at: RequiredTimestamp;
  first_opened_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  locked_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  revoked_by: string | null;
  uploaded_bytes: Generated<Bigint>;
  /** Migration 20261203_1001: token and passcode sealed under RECIPIENT_LINK_KEY (recipientAccess/seal.ts). */
  sealed: string | null;
}

/** Migration 20261202_6001: the session behind a right passcode, bound to its one access. */
export interface RecipientSessionsTable {
  id_hash: string;
  access_id: string;
  ip: string | null;
  created_at: Timestamp;
  last_seen_at: Timestamp;
}
