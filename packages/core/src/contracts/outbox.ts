import { z } from 'zod';
import { defineView } from './view.js';

// The admin outbox: its search page and the page of one outgoing message.

export const mailStatusSchema = z.enum(['waiting', 'sent', 'failed']);
export type MailStatus = z.infer<typeof mailStatusSchema>;

export const adminOutboxViewSchema = defineView('adminOutbox', {
  statuses: z.array(mailStatusSchema),
  /** A sender is configured (SMTP_URL); without one every message waits. */
  sending: z.boolean(),
});
export type AdminOutboxView = z.infer<typeof adminOutboxViewSchema>;

/** A line of the outbox search. */
export const outboxHitSchema = z.object({
  to: z.string(),
  subject: z.string(),
  createdAt: z.string(),
  status: mailStatusSchema,
  attempts: z.number(),
  lastError: z.string().nullable(),
  sentAt: z.string().nullable(),
});
export type OutboxHit = z.infer<typeof outboxHitSchema>;

export const outboxMessageSchema = outboxHitSchema.extend({
  id: z.string(),
  failedAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  messageId: z.string().nullable(),
  scope: z.string(),
  text: z.string(),
  /** Sanitized by the server; shown only inside a sandboxed frame. */
  html: z.string().nullable(),
  /** `url`: the attachment as sent, for whoever may read the message. */
  attachments: z.array(z.object({ name: z.string(), contentType: z.string(), url: z.string() })),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;

export const outboxMessageViewSchema = defineView('adminOutboxMessage', {
  mail: outboxMessageSchema,
  actions: z.array(z.string()),
});
export type OutboxMessageView = z.infer<typeof outboxMessageViewSchema>;
