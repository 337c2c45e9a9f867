import { z } from 'zod';
import { requestRecipientSchema } from '../requests/model.js';
import type {
  CorrespondenceItem,
  InvoiceItem,
  RequestHistoryEntry,
  RequestPart,
  RequestSummary,
  RequestTaskItem,
  ResultItem,
  TagDefinition,
} from '../requests/views.js';
import type { WizardItemType } from '../requests/wizard.js';
import type { SearchAnswer } from '../searchResult.js';
import { recipientAccessItemSchema } from './recipientAccess.js';
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

/** The request page: the request, its lists, what the actor may do now, and the panels' lookups. */
export const requestViewSchema = defineView('request', {
  request: typed<RequestSummary>(),
  /** The item types of the content as configured: they turn the stored answers into readable lines. */
  contentItemTypes: z.array(typed<WizardItemType>()),
  /** Parts the actor may edit now (server flags). */
  editableParts: z.array(typed<RequestPart>()),
  /** Actions offered now, by name (issueRequest, addTask, addResult, addInvoice, addNote, ...). */
  actions: z.array(z.string()),
  canAddUrgentNote: z.boolean(),
  tasks: z.array(typed<RequestTaskItem>()),
  recipientTasks: z.array(typed<RequestTaskItem>()),
  /** For the sender side (submitters, external users): delivered results only (QA done or skipped). */
  results: z.array(typed<ResultItem>()),
  /** Empty, and the list not shown, unless canViewInvoices. */
  invoices: z.array(typed<InvoiceItem>()),
  /** Staff of the request only: invoices and payments are staff business. */
  canViewInvoices: z.boolean(),
  /** Administrators and managers of the request's scope: the Access tab (GET …/access). */
  canViewAccess: z.boolean(),
  correspondence: z.array(typed<CorrespondenceItem>()),
  /** Staff of the request only: the recipient's links (issue 34), newest first. */
  recipientAccesses: z.array(recipientAccessItemSchema).optional(),
  previews: z.object({
    tasksDue: z.number(),
    tasksCompleted: z.number(),
    resultsAvailable: z.number(),
    resultsAwaitingQa: z.number(),
    invoicesPaid: z.number(),
    invoicesWaiting: z.number(),
    lastActivityAt: z.string(),
  }),
  history: z.array(typed<RequestHistoryEntry>()),
  /**
   * Retention (issue 36): when the files were removed and the applicant de-identified, and, for
   * staff of the request only, its legal hold (when and why).
   */
  retention: z
    .object({
      filesRemovedAt: z.string().optional(),
      deIdentifiedAt: z.string().optional(),
      legalHold: z.object({ at: z.string(), reason: z.string() }).optional(),
    })
    .optional(),
  /** Lookups the action panels need. */
  lookups: z.object({
    tags: z.record(z.string(), z.array(typed<TagDefinition>())),
    addableTaskTypes: z.array(z.string()),
    /** The on-behalf-of choices, when the sender part is editable. */
    submitters: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  }),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
export type RequestView = z.infer<typeof requestViewSchema>;
