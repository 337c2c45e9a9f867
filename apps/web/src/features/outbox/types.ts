import type { View } from '@dossier/core';

// The views of the admin outbox, as apps/server/src/features/outbox/service.ts answers them.

export type MailStatus = 'waiting' | 'sent' | 'failed';

export const MAIL_STATUS_COLORS: Record<MailStatus, string> = {
  waiting: 'yellow',
  sent: 'teal',
  failed: 'red',
};

export interface AdminOutboxView extends View {
  $type: 'adminOutbox';
  statuses: MailStatus[];
  /** A sender is configured (SMTP_URL); without one every message waits. */
  sending: boolean;
}

export interface OutboxHit {
  to: string;
  subject: string;
  createdAt: string;
  status: MailStatus;
  attempts: number;
  lastError: string | null;
  sentAt: string | null;
}

export interface OutboxMessage extends OutboxHit {
  id: string;
  failedAt: string | null;
  nextAttemptAt: string | null;
  messageId: string | null;
  scope: string;
  text: string;
  /** Sanitized by the server; shown only inside a sandboxed frame. */
  html: string | null;
  /** `url`: the attachment as sent, for whoever may read the message. */
  attachments: { name: string; contentType: string; url: string }[];
}

export interface OutboxMessageView extends View {
  $type: 'adminOutboxMessage';
  mail: OutboxMessage;
  actions: string[];
}
