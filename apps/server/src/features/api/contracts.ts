import { defineRoute, pagingQuerySchema, payeeFormSchema } from '@dossier/core';
import { z } from 'zod';
import { createRequestBodySchema } from '../wizard/index.js';
import {
  addInvoiceBody,
  addResultBody,
  apiScopeSchema,
  credentialsAnswer,
  credentialsBody,
  fileKeyParams,
  invoiceAdded,
  invoiceAnswer,
  invoiceParams,
  invoicesAnswer,
  payeeAnswer,
  payeeParams,
  payeeSearchAnswer,
  requestNumberParams,
  requestSummaryAnswer,
  resultAdded,
  resultParams,
  resultsAnswer,
  submitAnswer,
  uploadAnswer,
  uploadRequestBody,
} from './schemas.js';

// The route contracts of the public API (/api/v1), defined like every other route's and served by
// http/serve.ts; endpoints.ts adds what only the API has (API scope, tag, texts of the OpenAPI
// document). They live here rather than in packages/core/src/contracts: the web never calls them
// (API clients read the OpenAPI document made from them), and the submit body is the wizard's
// server-side schema, which core may not import.

/** A file download: no JSON answer to describe (the OpenAPI document says application/octet-stream). */
const download = z.unknown();

export const submitBody = createRequestBodySchema.omit({ draftId: true });

export const submitRequestRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/requests',
  body: submitBody,
  answer: submitAnswer,
});
export const readRequestRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/requests/:requestNumber',
  params: requestNumberParams,
  answer: requestSummaryAnswer,
});

export const listResultsRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/requests/:requestNumber/results',
  params: requestNumberParams,
  answer: resultsAnswer,
});
export const resultFileRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/requests/:requestNumber/results/:resultId/file',
  params: resultParams,
  answer: download,
});
export const addResultRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/requests/:requestNumber/results',
  params: requestNumberParams,
  body: addResultBody,
  answer: resultAdded,
});

export const listInvoicesRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/requests/:requestNumber/invoices',
  params: requestNumberParams,
  answer: invoicesAnswer,
});
export const addInvoiceRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/requests/:requestNumber/invoices',
  params: requestNumberParams,
  body: addInvoiceBody,
  answer: invoiceAdded,
});
export const confirmPaymentRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/requests/:requestNumber/invoices/:invoiceId/payment-confirmation',
  params: invoiceParams,
  answer: invoiceAnswer,
});

export const announceUploadRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/files',
  body: uploadRequestBody,
  answer: uploadAnswer,
});
export const fileRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/files/:key',
  params: fileKeyParams,
  answer: download,
});

export const searchPayeesRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/payees',
  query: pagingQuerySchema.extend({
    name: z.string().max(200).optional(),
    referenceNumber: z.string().max(100).optional(),
    email: z.string().max(254).optional(),
    bankAccount: z.string().max(100).optional(),
  }),
  answer: payeeSearchAnswer,
});
export const readPayeeRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/payees/:payeeId',
  params: payeeParams,
  answer: payeeAnswer,
});
export const createPayeeRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/payees',
  body: payeeFormSchema,
  answer: payeeAnswer,
});
export const updatePayeeRoute = defineRoute({
  method: 'PUT',
  path: '/api/v1/payees/:payeeId',
  params: payeeParams,
  body: payeeFormSchema,
  answer: payeeAnswer,
});

export const verifyCredentialsRoute = defineRoute({
  method: 'POST',
  path: '/api/v1/users/credentials/verify',
  body: credentialsBody,
  answer: credentialsAnswer,
});

// The API's own description, for anyone (no key needed).
export const openApiDocumentRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/openapi.json',
  answer: z.object({
    openapi: z.literal('3.1.0'),
    info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
    servers: z.array(z.object({ url: z.string() })),
    'x-audience': z.string(),
    'x-api-scopes': z.array(apiScopeSchema),
    tags: z.array(z.object({ name: z.string() })),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())).describe('Path → method → operation.'),
    components: z.object({
      schemas: z.record(z.string(), z.unknown()),
      securitySchemes: z.record(z.string(), z.unknown()),
    }),
  }),
});
/** The same as a readable page: HTML, not JSON, so no answer to describe. */
export const apiDocsPageRoute = defineRoute({
  method: 'GET',
  path: '/api/v1/docs',
  answer: z.unknown(),
});
