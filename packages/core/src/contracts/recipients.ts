import { z } from 'zod';
import { recipientContactSchema } from '../directory.js';
import { recipientBodySchema } from '../recipientRules.js';
import { pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { defineRoute } from './route.js';
import { defineView, historyEntrySchema } from './view.js';

// The administration of recipients: the list page and the edit page (payees: payees.ts).

export const adminRecipientsViewSchema = defineView('adminRecipients', { canCreateNew: z.boolean() });
export type AdminRecipientsView = z.infer<typeof adminRecipientsViewSchema>;

/** A tag of a recipient: its definition and the value chosen. */
export const recipientTagValueSchema = z.object({
  id: z.string(),
  name: z.string(),
  values: z.array(z.string()),
  isRequired: z.boolean(),
  value: z.string().nullish(),
});

export const adminRecipientViewSchema = defineView('adminRecipient', {
  recipientId: z.string().nullable(),
  /** The scope that owns the recipient (a new one: the actor's). */
  scope: z.string(),
  canEdit: z.boolean(),
  /** Why this user may not change it (another scope owns it). */
  readOnlyReason: z.string().optional(),
  recipient: z.object({
    disabled: z.boolean(),
    tags: z.record(z.string(), recipientTagValueSchema),
    name: z.string(),
    phone: z.string(),
    fax: z.string(),
    email: z.string(),
    webSiteUrl: z.string(),
    streetAddress: z.string(),
    postalAddress: z.string(),
    country: z.string(),
    notes: z.string(),
    attachments: z.array(z.object({ key: z.string(), name: z.string().nullish() })),
    contacts: z.array(recipientContactSchema),
    version: z.number(),
  }),
  history: z.array(historyEntrySchema),
});
export type AdminRecipientView = z.infer<typeof adminRecipientViewSchema>;

// ---- Routes of recipient administration (apps/server/src/features/recipients)

/** GET /admin/recipients: the search page. */
export const adminRecipientsRoute = defineRoute({
  method: 'GET',
  path: '/admin/recipients',
  answer: adminRecipientsViewSchema,
});

/** A line of the recipient search. */
export const recipientSummarySchema = z.object({
  name: z.string(),
  phone: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  disabled: z.boolean(),
});
export type RecipientSummary = z.infer<typeof recipientSummarySchema>;

export const searchRecipientsRoute = defineRoute({
  method: 'GET',
  path: '/admin/recipients/search',
  query: pagingQuerySchema.extend({
    name: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    address: z.string().max(200).optional(),
    email: z.string().max(254).optional(),
  }),
  answer: searchAnswerSchema(recipientSummarySchema),
});

const recipientParams = z.object({ recipientId: z.string().max(20) });

/** GET /admin/recipients/edit: the form of a new recipient. */
export const newRecipientRoute = defineRoute({
  method: 'GET',
  path: '/admin/recipients/edit',
  answer: adminRecipientViewSchema,
});

export const recipientRoute = defineRoute({
  method: 'GET',
  path: '/admin/recipients/edit/:recipientId',
  params: recipientParams,
  answer: adminRecipientViewSchema,
});

/** POST /admin/recipients/edit: creates a recipient; answers its page. */
export const createRecipientRoute = defineRoute({
  method: 'POST',
  path: '/admin/recipients/edit',
  body: recipientBodySchema,
  answer: adminRecipientViewSchema,
});

/** POST /admin/recipients/edit/{id}: saves a new version; answers the refreshed page. */
export const updateRecipientRoute = defineRoute({
  method: 'POST',
  path: '/admin/recipients/edit/:recipientId',
  params: recipientParams,
  body: recipientBodySchema,
  answer: adminRecipientViewSchema,
});
