import { z } from 'zod';
import {
  ATTACHMENT_CLASSIFICATIONS,
  type InboxAddress,
  type InboxMessageItem,
  type InboxSuggestion,
} from '../inbox.js';
import type { RequestTaskItem, TagDefinition } from '../requests/views.js';
import { dateQuery, optionalQuery, pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { defineRoute } from './route.js';
import { defineView, typed } from './view.js';

// The inbox: its search page and the page of one incoming message.

export const inboxViewSchema = defineView('inbox', {});
export type InboxView = z.infer<typeof inboxViewSchema>;

export const inboxMessageViewSchema = defineView('inboxMessage', {
  message: typed<InboxMessageItem & { bodyHtml?: string; to: InboxAddress[]; headerMessageId?: string }>(),
  summary: z.object({
    receivedAt: z.string(),
    from: z.string(),
    rawFileKey: z.string(),
    rawSize: z.number(),
    flagReason: z.string().optional(),
  }),
  tasks: z.array(typed<RequestTaskItem>()),
  actions: z.array(z.enum(['link', 'unlink'])),
  suggestions: z.array(typed<InboxSuggestion>()),
  lookups: z.object({
    tags: z.object({
      result: z.array(typed<TagDefinition>()).readonly(),
      invoice: z.array(typed<TagDefinition>()).readonly(),
    }),
  }),
  action: z.string().optional(),
});
export type InboxMessageView = z.infer<typeof inboxMessageViewSchema>;

const inboxAddressSchema = z.object({
  displayName: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  postalAddress: z.string().optional(),
});

/** A message as the search lists it (its text cut short there). */
export const inboxMessageItemSchema = z.object({
  messageId: z.string(),
  from: inboxAddressSchema,
  receivedAt: z.string(),
  requestNumbers: z.array(z.string()),
  requestLinks: z.array(
    z.object({
      requestNumber: z.string(),
      linkedAt: z.string().optional(),
      linkedByDisplayName: z.string().nullable().optional(),
      unlinkedAt: z.string().optional(),
      unlinkedByDisplayName: z.string().nullable().optional(),
    }),
  ),
  attachments: z.array(
    z.object({
      key: z.string().optional(),
      name: z.string(),
      contentType: z.string(),
      // Not every stored attachment carries its size: the answer passes on what was stored.
      size: z.number().optional(),
      blocked: z.boolean().optional(),
      blockedReason: z.string().optional(),
    }),
  ),
  subject: z.string(),
  bodyPlainText: z.string(),
  flagReason: z.string().optional(),
});

/** GET /inbox: the search page. */
export const inboxPageRoute = defineRoute({ method: 'GET', path: '/inbox', answer: inboxViewSchema });

/** GET /inbox/search: messages by sender, content and received dates, newest first. */
export const inboxSearchRoute = defineRoute({
  method: 'GET',
  path: '/inbox/search',
  query: pagingQuerySchema.extend({
    // Paging stops where counting stops.
    pageOffset: z.coerce.number().int().min(0).max(10_000).default(0),
    sender: optionalQuery(z.string().max(200)),
    content: optionalQuery(z.string().max(200)),
    receivedAtFrom: optionalQuery(dateQuery),
    receivedAtTo: optionalQuery(dateQuery),
  }),
  answer: searchAnswerSchema(inboxMessageItemSchema).extend({ summary: z.string() }),
});

const messageParams = z.object({ messageId: z.string().max(100) });

/** GET /inbox/messages/{messageId}: one message's page; `action` opens its link or unlink panel. */
export const inboxMessagePageRoute = defineRoute({
  method: 'GET',
  path: '/inbox/messages/:messageId',
  params: messageParams,
  query: z.object({ action: z.string().max(40).optional() }),
  answer: inboxMessageViewSchema,
});

/** GET …/actions/link/{requestNumber}: whether the message may be linked to that request. */
export const canLinkInboxMessageRoute = defineRoute({
  method: 'GET',
  path: '/inbox/messages/:messageId/actions/link/:requestNumber',
  params: messageParams.extend({ requestNumber: z.string().max(40) }),
  answer: z.strictObject({ canLink: z.boolean(), reason: z.string().optional() }),
});

const tags = z.record(z.string().max(100), z.string().max(200));

export const linkInboxMessageBodySchema = z.object({
  requestNumber: z.string({ error: 'This field is required.' }).trim().toUpperCase().max(40),
  attachments: z
    .array(
      z.object({
        classification: z.enum(ATTACHMENT_CLASSIFICATIONS, { error: 'Choose a classification.' }),
        resultTags: tags.optional(),
        invoiceTags: tags.optional(),
      }),
    )
    .max(100)
    .default([]),
});

/** POST …/actions/link: links the message to a request and takes each attachment as classified. */
export const linkInboxMessageRoute = defineRoute({
  method: 'POST',
  path: '/inbox/messages/:messageId/actions/link',
  params: messageParams,
  body: linkInboxMessageBodySchema,
  answer: z.strictObject({
    requestNumber: z.string(),
    correspondenceId: z.string(),
    resultIds: z.array(z.string()),
    invoiceIds: z.array(z.string()),
  }),
});

export const unlinkInboxMessageBodySchema = z.object({
  requestNumber: z.string({ error: 'This field is required.' }).trim().max(40),
});

/** POST …/actions/unlink: takes the message off a request (its results and invoices stay). */
export const unlinkInboxMessageRoute = defineRoute({
  method: 'POST',
  path: '/inbox/messages/:messageId/actions/unlink',
  params: messageParams,
  body: unlinkInboxMessageBodySchema,
  answer: z.strictObject({ requestNumber: z.string() }),
});

/**
 * POST …/actions/{action}: the one route the server registers for the message's actions, so an
 * unknown action is a 404 of its own. Its body is checked by the action's contract above
 * (link or unlink), after the inbox permission, and it answers what that action answers.
 */
export const inboxMessageActionRoute = defineRoute({
  method: 'POST',
  path: '/inbox/messages/:messageId/actions/:action',
  params: messageParams.extend({ action: z.string().max(40) }),
  answer: z.union([linkInboxMessageRoute.answer, unlinkInboxMessageRoute.answer]),
});
