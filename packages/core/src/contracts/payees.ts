import { z } from 'zod';
import { payeeBodySchema } from '../directory.js';
import { pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { defineRoute } from './route.js';
import { currencyChoiceSchema, defineView, historyEntrySchema } from './view.js';

// The administration of payees: the list page and the edit page. Apart from the recipients'
// (recipients.ts), whose body checks phone numbers: the request's result and invoice pages use the
// payee search's lines, and load no phone number rules for them.

export const adminPayeesViewSchema = defineView('adminPayees', { canCreateNew: z.boolean() });
export type AdminPayeesView = z.infer<typeof adminPayeesViewSchema>;

export const adminPayeeViewSchema = defineView('adminPayee', {
  payeeId: z.string().nullable(),
  /** The scope that owns the payee (a new one: the actor's). */
  scope: z.string(),
  /** The scopes a new payee may belong to (the editor chooses; empty once it exists). */
  scopes: z.array(z.object({ scopePath: z.string(), name: z.string() })),
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

// ---- Routes of payee administration (apps/server/src/features/payees)

export const adminPayeesRoute = defineRoute({
  method: 'GET',
  path: '/admin/payees',
  answer: adminPayeesViewSchema,
});

/** A line of the payee search. */
export const payeeSummarySchema = z.object({
  /** When the bank account or email changed lately: whoever pays should check them. */
  paymentDetailsChangedAt: z.string().optional(),
  name: z.string(),
  referenceNumber: z.string().nullable(),
  email: z.string().nullable(),
  bankAccount: z.string().nullable(),
  currency: z.string(),
  disabled: z.boolean(),
});
export type PayeeSummary = z.infer<typeof payeeSummarySchema>;

/** A payee search's filters: the directory's, and the pay action's (requestItems.ts). */
export const payeeSearchQuerySchema = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  referenceNumber: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  bankAccount: z.string().max(100).optional(),
});

export const searchPayeesRoute = defineRoute({
  method: 'GET',
  path: '/admin/payees/search',
  query: payeeSearchQuerySchema,
  answer: searchAnswerSchema(payeeSummarySchema),
});

const payeeParams = z.object({ payeeId: z.string().max(20) });

export const newPayeeRoute = defineRoute({
  method: 'GET',
  path: '/admin/payees/edit',
  answer: adminPayeeViewSchema,
});

export const payeeRoute = defineRoute({
  method: 'GET',
  path: '/admin/payees/edit/:payeeId',
  params: payeeParams,
  answer: adminPayeeViewSchema,
});

export const createPayeeRoute = defineRoute({
  method: 'POST',
  path: '/admin/payees/edit',
  body: payeeBodySchema,
  answer: adminPayeeViewSchema,
});

export const updatePayeeRoute = defineRoute({
  method: 'POST',
  path: '/admin/payees/edit/:payeeId',
  params: payeeParams,
  body: payeeBodySchema,
  answer: adminPayeeViewSchema,
});
