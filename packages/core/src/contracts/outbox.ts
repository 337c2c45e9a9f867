import { z } from 'zod';
import { optionalQuery, pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { emailSchema } from '../validators.js';
import { defineRoute } from './route.js';
import { defineView } from './view.js';

// The admin outbox: its search page and the page of one outgoing message.

export const MAIL_STATUSES = ['waiting', 'sent', 'failed'] as const;
export const mailStatusSchema = z.enum(MAIL_STATUSES);
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

// ---- Routes of the outbox (apps/server/src/features/outbox)

/** Counting outgoing mail stops here, and so does paging (the table may hold millions). */
export const OUTBOX_COUNT_CAP = 10_000;

export const adminOutboxRoute = defineRoute({
  method: 'GET',
  path: '/admin/outbox',
  answer: adminOutboxViewSchema,
});

export const searchOutboxRoute = defineRoute({
  method: 'GET',
  path: '/admin/outbox/search',
  query: pagingQuerySchema.extend({
    // Paging stops where counting stops.
    pageOffset: z.coerce.number().int().min(0).max(OUTBOX_COUNT_CAP).default(0),
    status: optionalQuery(z.enum(MAIL_STATUSES, { error: 'Choose waiting, sent or failed.' })),
    to: optionalQuery(emailSchema),
  }),
  answer: searchAnswerSchema(outboxHitSchema),
});

const mailParams = z.object({ mailId: z.string().max(40) });

export const outboxMessageRoute = defineRoute({
  method: 'GET',
  path: '/admin/outbox/:mailId',
  params: mailParams,
  answer: outboxMessageViewSchema,
});

// An attachment is the file as sent (or the refusal page a browser tab gets): not JSON.
/** GET /admin/outbox/{id}/attachments/{index}: inline, or as a download with ?attachment. */
export const outboxAttachmentRoute = defineRoute({
  method: 'GET',
  path: '/admin/outbox/:mailId/attachments/:index',
  params: mailParams.extend({
    index: z.coerce.number({ error: 'Not an attachment.' }).int().min(0).max(99, 'Not an attachment.'),
  }),
  query: z.object({ attachment: z.string().optional() }),
  answer: z.unknown(),
});

/** POST /admin/outbox/{id}/actions/{action}: "resend" (Send again); the refreshed message page. */
export const outboxActionRoute = defineRoute({
  method: 'POST',
  path: '/admin/outbox/:mailId/actions/:action',
  params: mailParams.extend({ action: z.string().max(40) }),
  answer: outboxMessageViewSchema,
});
