import type { Generated, JSONColumnType } from 'kysely';
import type { JsonObject, RecipientData } from './jsonColumns.js';
import type { Timestamp } from './schemaTypes.js';

// The tables of the directory (recipients with their versions, payees) and of the hierarchical
// configuration (configurations, their entries and secrets).

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
  tags: JSONColumnType<RecipientData['tags']>;
  attachments: JSONColumnType<RecipientData['attachments']>;
  contacts: JSONColumnType<RecipientData['contacts']>;
  created_at: Timestamp;
  updated_at: Timestamp;
  updated_by: string | null;
}

export interface RecipientVersionsTable {
  recipient_id: string;
  version: number;
  data: JSONColumnType<RecipientData>;
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
  data: JSONColumnType<JsonObject>;
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
