import { z } from 'zod';
import { requestRecipientSchema } from '../requests/model.js';
import type { InvoiceItem, ResultItem, TagDefinition } from '../requests/views.js';
import type { SearchAnswer } from '../searchResult.js';
import { currencyChoiceSchema, defineView, scopeChoiceSchema, typed } from './view.js';

// The pages around a request: a result, an invoice, the recipient choice, and finding requests.

export const requestResultViewSchema = defineView('requestResult', {
  requestNumber: z.string(),
  applicantName: z.string(),
  result: typed<ResultItem>(),
  /** The item types of the request, to choose from when quality-assuring. */
  requestItemTypes: z.array(z.object({ id: z.string(), name: z.string() })),
  tagDefinitions: z.array(typed<TagDefinition>()),
  actions: z.array(z.string()),
});
export type RequestResultView = z.infer<typeof requestResultViewSchema>;

export const requestInvoiceViewSchema = defineView('requestInvoice', {
  requestNumber: z.string(),
  applicantName: z.string(),
  invoice: typed<InvoiceItem>(),
  tagDefinitions: z.array(typed<TagDefinition>()),
  actions: z.array(z.string()),
  /** `select-payee`: the page shows the payee search that leads to the pay form. */
  action: z.string().nullable(),
  /** payee:view: the payment links to the payee's entry. */
  canViewPayee: z.boolean(),
  currencies: z.array(currencyChoiceSchema),
  defaultCurrency: z.string(),
});
export type RequestInvoiceView = z.infer<typeof requestInvoiceViewSchema>;

export const findRequestsViewSchema = defineView('findRequests', { scopes: z.array(scopeChoiceSchema) });
export type FindRequestsView = z.infer<typeof findRequestsViewSchema>;

/** A recipient found on the select-recipient page. */
export const recipientHitSchema = requestRecipientSchema.extend({
  address: z.string().nullable(),
  disabled: z.boolean(),
});
export type RecipientHit = z.infer<typeof recipientHitSchema>;

export const selectRecipientViewSchema = defineView('selectRecipient', {
  requestNumber: z.string(),
  /** The request's version, sent back on save (a newer one on the server means a conflict). */
  version: z.number(),
  isClosed: z.boolean(),
  current: z.object({ recipient: requestRecipientSchema, state: z.enum(['new', 'updated', 'unchanged']) }),
  search: z.object({
    terms: z.object({ name: z.string(), phone: z.string(), address: z.string(), email: z.string() }),
    result: typed<SearchAnswer<RecipientHit> & { summary: string }>().optional(),
  }),
  enterNew: z.boolean(),
  newRecipient: requestRecipientSchema,
});
export type SelectRecipientView = z.infer<typeof selectRecipientViewSchema>;
