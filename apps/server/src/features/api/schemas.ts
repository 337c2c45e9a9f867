import {
  API_SCOPES,
  applicantSchema,
  contentSchema,
  ISSUE_REQUEST_METHODS,
  PAYMENT_METHODS,
  payeeSummarySchema,
  REQUEST_NUMBER_PATTERN,
  REQUEST_STATUSES,
  requestFileSchema,
  requestRecipientSchema,
  searchAnswerSchema,
  senderSchema,
  tagValuesSchema,
  uploadRequestSchema,
} from '@dossier/core';
import { z } from 'zod';

// Shapes of the public API that are not already a shared schema (those are imported where used).
// Request bodies are checked again by the services they reach: these describe and pre-check them.

export const apiScopeSchema = z.enum(API_SCOPES);

export const requestNumberParams = z.object({
  requestNumber: z.string().regex(REQUEST_NUMBER_PATTERN, 'Not a request number.'),
});
export const resultParams = requestNumberParams.extend({ resultId: z.uuid() });
export const invoiceParams = requestNumberParams.extend({ invoiceId: z.uuid() });
export const fileKeyParams = z.object({ key: z.string().regex(/^[\w-]{10,64}$/, 'Not a file key.') });
export const payeeParams = z.object({ payeeId: z.string().regex(/^\d{1,18}$/, 'Not a payee id.') });

export const fileRef = z.object({
  key: z.string().min(1, 'A file is required.').max(100).describe('A key answered by POST /api/v1/files.'),
  name: z.string().max(300).optional(),
});

/** The web's upload request without its public-read choice: files sent by the API stay private. */
export const uploadRequestBody = uploadRequestSchema.omit({ publicReadAccess: true });

export const uploadAnswer = z.object({
  key: z.string(),
  uploadUrl: z.url().describe('PUT the bytes here, with the headers below, before using the key.'),
  headers: z.record(z.string(), z.string()),
});

const tags = z.record(z.string().max(100), z.string().max(200));
const minor = z.number().int('Enter whole cents.').min(0).max(1e13).nullish();

export const addResultBody = z.object({ file: fileRef, tags: tags.default({}) });
export const addInvoiceBody = z.object({
  file: fileRef,
  tags: tags.default({}),
  notice: z.string().max(10_000).nullish(),
  amountExclusiveTax: minor.describe('Minor units (cents).'),
  tax: minor.describe('Minor units (cents).'),
  amount: minor.describe('Minor units (cents); must equal amountExclusiveTax + tax when all are given.'),
  currency: z.string().max(3).nullish(),
  foreignReference: z
    .object({
      url: z.string().max(2000).describe('https only; credentials are stripped.'),
      label: z.string().max(200).nullish().describe('Shown as the link text (the URL when empty).'),
    })
    .nullish()
    .describe("The invoice's entry in the calling system, linked from the invoice page."),
});

export const credentialsBody = z.object({
  userId: z.string().trim().min(1, 'Required.').max(254).describe('The user id or e-mail address.'),
  password: z.string().min(1, 'Required.').max(1000),
});
export const credentialsAnswer = z.object({
  valid: z.boolean(),
  user: z.object({ id: z.string(), name: z.string(), email: z.string(), scope: z.string() }).optional(),
});

const isoDate = z.string().describe('ISO 8601 date-time');

// The answers: the stored shapes of core (senderSchema …) where they exist, so the document says
// what a request holds; every answer is checked against these in tests (CHECK_ANSWERS).
export const requestSummaryAnswer = z.object({
  requestNumber: z.string(),
  status: z.enum(REQUEST_STATUSES),
  scope: z.string(),
  sender: senderSchema.extend({
    organizationName: z.string().optional(),
    submittedOnBehalfOfDisplayName: z.string().nullish(),
  }),
  applicant: applicantSchema,
  recipient: requestRecipientSchema,
  content: contentSchema,
  tags: tagValuesSchema,
  submittedAt: isoDate,
  submittedBy: z.string().nullable(),
  submittedByDisplayName: z.string().nullable(),
  issuedAt: isoDate.optional(),
  issueMethod: z.enum(ISSUE_REQUEST_METHODS).optional(),
  closedAt: isoDate.optional(),
  closedBy: z.string().optional(),
  lastUpdatedAt: isoDate,
  lastUpdatedBy: z.string().nullable(),
  lastActivityAt: isoDate,
  version: z.number(),
  kpi: z
    .object({
      businessDaysElapsed: z.number(),
      businessDaysElapsedLessPended: z.number(),
      daysPendedInternal: z.number(),
      daysPendedExternal: z.number(),
      calendarDaysElapsed: z.number(),
    })
    .describe('Days: elapsed (business, business less pended, calendar) and pended.'),
});

export const submitAnswer = z.object({ requestNumber: z.string(), status: z.literal('submitted') });

export const resultsAnswer = z.object({
  results: z.array(
    z.object({
      resultId: z.string(),
      requestNumber: z.string(),
      file: requestFileSchema,
      tags: tagValuesSchema,
      createdAt: isoDate,
      createdBy: z.string().nullable(),
      createdByDisplayName: z.string().nullish(),
      qualityAssuredAt: isoDate.optional(),
      qualityAssuredBy: z.string().optional(),
      qualityAssuredByDisplayName: z.string().optional(),
      qualityAssuranceSkipped: z.boolean(),
      downloadedAt: isoDate.optional(),
      downloadedBy: z.string().optional(),
      discardedAt: isoDate.optional(),
      subject: z.string().optional().describe("The applicant's name."),
      itemTypes: z.array(z.object({ id: z.string(), name: z.string() })),
    }),
  ),
});

const minorUnits = (description: string) => z.number().describe(`${description} (minor units).`);
const paymentAnswer = z.object({
  paymentId: z.string(),
  paidAt: isoDate,
  paidByDisplayName: z.string().optional(),
  payeeId: z.string().nullish(),
  payeeName: z.string(),
  payeeReferenceNumber: z.string().nullish(),
  payeeEmail: z.string().nullish(),
  method: z.enum(PAYMENT_METHODS),
  amountExclusiveTax: minorUnits('Without tax'),
  tax: minorUnits('The tax'),
  amount: minorUnits('The amount paid'),
  currency: z.string(),
  nameOnCard: z.string().nullish(),
  bankAccount: z.string().nullish(),
  invoiceReferenceNumber: z.string().nullish(),
  remittanceAdvice: requestFileSchema.optional().describe('The newest remittance advice sent.'),
});
export const invoiceAnswer = z.object({
  invoiceId: z.string(),
  requestNumber: z.string(),
  file: requestFileSchema,
  tags: tagValuesSchema,
  createdAt: isoDate,
  createdByDisplayName: z.string().nullable(),
  paidAt: isoDate.optional(),
  paidByDisplayName: z.string().optional(),
  paymentConfirmedAt: isoDate.optional(),
  discardedAt: isoDate.optional(),
  discardedByDisplayName: z.string().optional(),
  remittanceAdvice: requestFileSchema.optional(),
  notice: z.string().nullish(),
  foreignReference: z.object({ url: z.string(), label: z.string() }).nullish(),
  amount: z.number().nullish().describe('The amount billed (minor units); no payment changes it.'),
  amountExclusiveTax: z.number().nullish().describe('Minor units.'),
  tax: z.number().nullish().describe('Minor units.'),
  currency: z.string().nullish(),
  paid: z.number().describe('The sum of the payments (minor units).'),
  balance: z.number().nullable().describe('amount − paid; null when the invoice has no amount.'),
  payments: z
    .array(paymentAnswer)
    .describe('The payments, oldest first: part payments and the one that settled the invoice.'),
});
export const invoicesAnswer = z.object({ invoices: z.array(invoiceAnswer) });
export const resultAdded = z.object({ resultId: z.string() });
export const invoiceAdded = z.object({ invoiceId: z.string() });

export const payeeAnswer = z.object({
  payeeId: z.string(),
  version: z.number(),
  disabled: z.boolean(),
  name: z.string(),
  referenceNumber: z.string(),
  email: z.string(),
  bankAccount: z.string(),
  currency: z.string(),
  foreignReference: z.object({ label: z.string(), url: z.string() }).nullable(),
});
/** The directory's payee search answer, its dates described for the OpenAPI document. */
export const payeeSearchAnswer = searchAnswerSchema(
  payeeSummarySchema.extend({
    paymentDetailsChangedAt: isoDate
      .optional()
      .describe('When the bank account or email changed lately: whoever pays should check them.'),
  }),
).extend({
  totalIsCapped: z.boolean().optional().describe('Counting stopped at a cap: there are more than total.'),
});
