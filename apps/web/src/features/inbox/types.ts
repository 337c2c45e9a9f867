import type { RequestTaskItem, SearchAnswer, TagDefinition, View } from '@dossier/core';

// The inbox shapes the server answers (apps/server/src/features/inbox/views.ts).

export interface InboxAddress {
  displayName?: string;
  email?: string;
}

export interface InboxAttachment {
  key?: string;
  name: string;
  contentType: string;
  size: number;
  blocked?: boolean;
  blockedReason?: string;
}

export interface InboxRequestLink {
  requestNumber: string;
  linkedAt?: string;
  linkedByDisplayName?: string | null;
  unlinkedAt?: string;
}

export interface InboxMessageItem {
  messageId: string;
  from: InboxAddress;
  receivedAt: string;
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

export interface InboxMessageView extends View {
  $type: 'inboxMessage';
  message: InboxMessageItem & { to: InboxAddress[] };
  summary: { receivedAt: string; from: string; rawFileKey: string; rawSize: number; flagReason?: string };
  tasks: RequestTaskItem[];
  actions: ('link' | 'unlink')[];
  suggestions: {
    requestNumber: string;
    applicantName: string;
    recipientName: string;
    status: string;
    reasons: string[];
  }[];
  lookups: { tags: { result: TagDefinition[]; invoice: TagDefinition[] } };
  action?: string;
}

export const CLASSIFICATIONS = [
  'notIncluded',
  'attachment',
  'result',
  'invoice',
  'invoiceAndResult',
] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

export function senderOf(from: InboxAddress): string {
  if (from.displayName && from.email) return `${from.displayName} <${from.email}>`;
  return from.displayName || from.email || '';
}
