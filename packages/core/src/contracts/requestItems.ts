import { z } from 'zod';
import { REQUEST_STATUSES, requestRecipientSchema } from '../requests/model.js';
import { dateQuery, optionalQuery, pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { payeeSearchQuerySchema, payeeSummarySchema } from './payees.js';
import {
  findRequestsViewSchema,
  requestInvoiceViewSchema,
  requestResultViewSchema,
  selectRecipientViewSchema,
} from './requests.js';
import { defineRoute } from './route.js';

// The routes of the pages around a request: a result, an invoice (and its payee search), finding
// requests, and choosing the request's recipient.

const requestNumber = z.string().max(20);

/**
 * The body of an item action: each action parses it with its own schema after the caller's
 * permission and the item's state held (http/actions.ts), so a refusal comes before a field error.
 */
const itemActionBody = z.record(z.string(), z.unknown()).optional();

const resultParams = z.object({ requestNumber, resultId: z.string().max(40) });

export const resultPageRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/results/:resultId',
  params: resultParams,
  answer: requestResultViewSchema,
});

/** Answers the result page as it is after the action. */
export const resultActionRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/results/:resultId/actions/:action',
  params: resultParams.extend({ action: z.string().max(50) }),
  body: itemActionBody,
  answer: requestResultViewSchema,
});

const invoiceParams = z.object({ requestNumber, invoiceId: z.string().max(40) });

/** `?action=select-payee` opens the page at the payee search of the pay action. */
export const invoicePageRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/invoices/:invoiceId',
  params: invoiceParams,
  query: z.object({ action: z.string().max(50).optional() }),
  answer: requestInvoiceViewSchema,
});

/** Answers the invoice page as it is after the action. */
export const invoiceActionRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/invoices/:invoiceId/actions/:action',
  params: invoiceParams.extend({ action: z.string().max(50) }),
  body: itemActionBody,
  answer: requestInvoiceViewSchema,
});

/** The pay action's payee search: payees as the directory lists them. */
export const payeeSearchRoute = defineRoute({
  method: 'GET',
  path: '/payees/search',
  query: payeeSearchQuerySchema,
  answer: searchAnswerSchema(payeeSummarySchema),
});

export const findRequestsRoute = defineRoute({
  method: 'GET',
  path: '/requests/find',
  answer: findRequestsViewSchema,
});

/** Counting the matches of a request search stops here; paging stops with it. */
export const REQUEST_SEARCH_CAP = 200;

export const requestHitSchema = z.object({
  requestNumber: z.string(),
  scope: z.string(),
  status: z.enum(REQUEST_STATUSES),
  applicantName: z.string(),
  recipientName: z.string(),
  submittedAt: z.string(),
  closedAt: z.string().nullable(),
  lastActivityAt: z.string(),
});
export type RequestHit = z.infer<typeof requestHitSchema>;

export const requestSearchAnswerSchema = searchAnswerSchema(requestHitSchema).extend({
  /** The total stopped counting at the cap: there are more than `total` matches. */
  totalIsCapped: z.boolean(),
  summary: z.string(),
});
export type RequestSearchAnswer = z.infer<typeof requestSearchAnswerSchema>;

export const requestSearchQuerySchema = pagingQuerySchema.extend({
  // Paging stops where counting stops: deeper pages would read (and sort) ever more rows.
  pageOffset: z.coerce.number().int().min(0).max(REQUEST_SEARCH_CAP).default(0),
  requestNumber: optionalQuery(z.string().max(40)),
  subject: optionalQuery(z.string().max(200)),
  recipient: optionalQuery(z.string().max(200)),
  submittedAtFrom: optionalQuery(dateQuery),
  submittedAtTo: optionalQuery(dateQuery),
  scope: optionalQuery(z.string().max(300)),
  q: optionalQuery(z.string().max(200)),
});

export const requestSearchRoute = defineRoute({
  method: 'GET',
  path: '/requests/search',
  query: requestSearchQuerySchema,
  answer: requestSearchAnswerSchema,
});

const recipientParams = z.object({ requestNumber: z.string().max(40) });
const flag = z.enum(['1', 'true', '0', 'false']).transform((v) => v === '1' || v === 'true');

/** The address carries the search: search.name … and search._trigger=1 to run it. */
export const selectRecipientRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/select-recipient',
  params: recipientParams,
  query: z.object({
    enterNew: flag.optional(),
    'search.name': z.string().max(200).optional(),
    'search.phone': z.string().max(40).optional(),
    'search.address': z.string().max(200).optional(),
    'search.email': z.string().max(254).optional(),
    'search._trigger': flag.optional(),
    pageOffset: z.coerce.number().int().min(0).max(10_000).default(0),
  }),
  answer: selectRecipientViewSchema,
});

export const saveRecipientRoute = defineRoute({
  method: 'POST',
  path: '/requests/:requestNumber/recipient',
  params: recipientParams,
  body: z.object({
    /** The request's version the page was loaded with: a newer one means someone else changed it. */
    version: z.number().int().min(0),
    recipient: requestRecipientSchema,
  }),
  answer: z.object({
    requestNumber: z.string(),
    version: z.number(),
    recipient: requestRecipientSchema,
    state: z.enum(['new', 'updated', 'unchanged']),
  }),
});
