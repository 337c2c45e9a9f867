import { z } from 'zod';
import { recipientContactSchema } from '../directory.js';
import { currencyChoiceSchema, defineView, historyEntrySchema } from './view.js';

// The administration of recipients and of payees: the list pages and the edit pages.

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

export const adminPayeesViewSchema = defineView('adminPayees', { canCreateNew: z.boolean() });
export type AdminPayeesView = z.infer<typeof adminPayeesViewSchema>;

export const adminPayeeViewSchema = defineView('adminPayee', {
  payeeId: z.string().nullable(),
  /** The scope that owns the payee (a new one: the actor's). */
  scope: z.string(),
  canEdit: z.boolean(),
  /** Why this user may not change it (another scope owns it). */
  readOnlyReason: z.string().optional(),
  currencies: z.array(currencyChoiceSchema),
  payee: z.object({
    disabled: z.boolean(),
    name: z.string(),
    referenceNumber: z.string(),
    email: z.string(),
    bankAccount: z.string(),
    currency: z.string(),
    foreignReference: z.object({ label: z.string(), url: z.string() }).nullable(),
    version: z.number(),
  }),
  history: z.array(historyEntrySchema),
});
export type AdminPayeeView = z.infer<typeof adminPayeeViewSchema>;
