import { z } from 'zod';
import type { InboxAddress, InboxMessageItem, InboxSuggestion } from '../inbox.js';
import type { RequestTaskItem, TagDefinition } from '../requests/views.js';
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
