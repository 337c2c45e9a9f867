import type { SearchAnswer } from './searchResult.js';

// The shapes the inbox pages and calls answer (Inbox message entity and the inbox pages),
// shared by the server that builds them and the pages that show them.

/** How each attachment is taken when a message is linked (4): notIncluded is dropped. */
export const ATTACHMENT_CLASSIFICATIONS = [
  'notIncluded',
  'attachment',
  'result',
  'invoice',
  'invoiceAndResult',
] as const;
export type AttachmentClassification = (typeof ATTACHMENT_CLASSIFICATIONS)[number];

export interface InboxAddress {
  displayName?: string;
  email?: string;
  phone?: string;
  postalAddress?: string;
}

export interface InboxRequestLink {
  requestNumber: string;
  linkedAt?: string;
  linkedByDisplayName?: string | null;
  unlinkedAt?: string;
  unlinkedByDisplayName?: string | null;
}

export interface InboxAttachment {
  key?: string;
  name: string;
  contentType: string;
  size: number;
  blocked?: boolean;
  blockedReason?: string;
}

export interface InboxMessageItem {
  messageId: string;
  from: InboxAddress;
  receivedAt: string;
  /** The requests the message is linked to now. */
  requestNumbers: string[];
  requestLinks: InboxRequestLink[];
  attachments: InboxAttachment[];
  subject: string;
  bodyPlainText: string;
  flagReason?: string;
}

export interface InboxSearchAnswer extends SearchAnswer<InboxMessageItem> {
  summary: string;
}

export interface InboxSuggestion {
  requestNumber: string;
  applicantName: string;
  recipientName: string;
  status: string;
  reasons: string[];
}
