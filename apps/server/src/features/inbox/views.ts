import type { RequestTaskItem, SearchAnswer, TagDefinition, View } from '@dossier/core';

// The shapes the inbox pages and calls answer (spec 2, Inbox message entity and the inbox pages).

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

export interface InboxMessageView extends View {
  $type: 'inboxMessage';
  title: string;
  message: InboxMessageItem & { bodyHtml?: string; to: InboxAddress[]; headerMessageId?: string };
  summary: { receivedAt: string; from: string; rawFileKey: string; rawSize: number; flagReason?: string };
  tasks: RequestTaskItem[];
  actions: ('link' | 'unlink')[];
  suggestions: InboxSuggestion[];
  lookups: { tags: { result: readonly TagDefinition[]; invoice: readonly TagDefinition[] } };
  action?: string;
}
