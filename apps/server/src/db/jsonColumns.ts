import type {
  Applicant,
  CorrespondenceAddress,
  RecipientContact,
  RequestContent,
  RequestRecipient,
  TagValues,
} from '@dossier/core';

// What the jsonb columns hold (schema.ts types them with these). The application wrote every row
// through these shapes; a value from outside (an older row, a mail header) is still read with care
// where the reader says so.

/** An object whose fields vary with its kind (event payloads, configuration entry data). */
export type JsonObject = Record<string, unknown>;

/** A stored file (files.key) sent along with an outgoing mail; read from file storage when sent. */
export interface MailAttachment {
  fileKey: string;
  name: string;
  contentType: string;
}

/** A file of a correspondence item. */
export interface StoredAttachment {
  key: string;
  name: string;
  contentType?: string;
  blocked?: boolean;
  blockedReason?: string;
}

/** A file of an incoming mail message. */
export interface StoredInboxAttachment {
  key: string;
  name: string;
  contentType: string;
  size: number;
  blocked?: boolean;
  blockedReason?: string;
}

/** An address of an incoming mail message, as the mail parser gave it. */
export interface MailAddress {
  displayName?: string;
  email?: string;
}

/** Where an invoice is kept in another system. */
export interface ForeignReference {
  url?: string;
  label?: string;
}

/** The item types a result covers. */
export type StoredItemTypes = { id: string; name: string }[];

/** A whole saved version of a recipient (recipient_versions.data). */
export interface RecipientData {
  disabled: boolean;
  name: string;
  phone: string;
  fax: string | null;
  email: string | null;
  webSiteUrl: string | null;
  streetAddress: string | null;
  postalAddress: string | null;
  country: string | null;
  notes: string | null;
  /** The value given to each recipient tag, by tag id. */
  tags: Record<string, { value: string | null }>;
  attachments: { key: string; name?: string | null | undefined }[];
  contacts: RecipientContact[];
}

export type {
  Applicant,
  CorrespondenceAddress,
  RecipientContact,
  RequestContent,
  RequestRecipient,
  TagValues,
};
