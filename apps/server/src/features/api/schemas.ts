import { API_SCOPES, REQUEST_NUMBER_PATTERN } from '@dossier/core';
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

export const uploadRequestBody = z.object({
  name: z.string().trim().min(1, 'A file name is required.').max(255),
  contentType: z
    .string()
    .trim()
    .min(3)
    .max(200)
    .regex(/^[\w.+-]+\/[\w.+-]+/, 'Not a content type.'),
  contentLength: z.number().int().positive('The file is empty.'),
});

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
export const requestSummaryAnswer = z
  .object({
    requestNumber: z.string(),
    status: z.enum(['submitted', 'open', 'closed']),
    scope: z.string(),
    sender: z.object({}).passthrough(),
    applicant: z.object({}).passthrough(),
    recipient: z.object({}).passthrough(),
    content: z.object({}).passthrough(),
    tags: z.record(z.string(), z.unknown()),
    submittedAt: isoDate,
    issuedAt: isoDate.optional(),
    closedAt: isoDate.optional(),
    lastActivityAt: isoDate,
    version: z.number(),
    kpi: z.object({}).passthrough(),
  })
  .passthrough();

export const submitAnswer = z.object({ requestNumber: z.string(), status: z.literal('submitted') });

const fileAnswer = z.object({ key: z.string(), name: z.string().optional() });
const foreignReferenceAnswer = z.object({ url: z.string(), label: z.string() });
export const resultsAnswer = z.object({
  results: z.array(
    z
      .object({
        resultId: z.string(),
        file: fileAnswer,
        tags: z.record(z.string(), z.unknown()),
        createdAt: isoDate,
        qualityAssuredAt: isoDate.optional(),
        qualityAssuranceSkipped: z.boolean(),
        discardedAt: isoDate.optional(),
      })
      .passthrough(),
  ),
});
export const invoicesAnswer = z.object({
  invoices: z.array(
    z
      .object({
        invoiceId: z.string(),
        file: fileAnswer,
        tags: z.record(z.string(), z.unknown()),
        createdAt: isoDate,
        paidAt: isoDate.optional(),
        paymentConfirmedAt: isoDate.optional(),
        discardedAt: isoDate.optional(),
        amount: z.number().nullable().describe('The amount billed (minor units); no payment changes it.'),
        currency: z.string().nullable(),
        paid: z.number().describe('The sum of the payments (minor units).'),
        balance: z.number().nullable().describe('amount − paid; null when the invoice has no amount.'),
        payments: z
          .array(
            z
              .object({
                paymentId: z.string(),
                paidAt: isoDate,
                amount: z.number(),
                currency: z.string(),
              })
              .passthrough(),
          )
          .describe('The payments, oldest first: part payments and the one that settled the invoice.'),
        foreignReference: foreignReferenceAnswer.nullable(),
      })
      .passthrough(),
  ),
});
export const invoiceAnswer = invoicesAnswer.shape.invoices.element;
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
export const payeeSearchAnswer = z
  .object({
    hits: z.array(z.object({ id: z.string(), item: z.object({}).passthrough() })),
    total: z.number(),
  })
  .passthrough();
