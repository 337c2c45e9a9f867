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
}

export interface EventsTable {
  id: Generated<string>;
  type: string;
  aggregate_type: string;
  aggregate_id: string;
  actor: string | null;
  payload: ColumnType<unknown, string | undefined, string>;
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

export interface Database {
  users: UsersTable;
  files: FilesTable;
  app_secrets: AppSecretsTable;
  sso_logins: SsoLoginsTable;
  user_roles: UserRolesTable;
  sessions: SessionsTable;
  signin_failures: SigninFailuresTable;
  notifications: NotificationsTable;
  tasks: TasksTable;
  events: EventsTable;
}
