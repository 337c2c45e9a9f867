import { z } from 'zod';
import { applicantSchema, draftDataSchema, type RequestFile, requestDataSchema } from '../requests/model.js';
import type {
  DraftSummary,
  OpenDraft,
  SenderData,
  WizardOrganization,
  WizardStep,
} from '../requests/wizard.js';
import { LAST_STEP } from '../requests/wizard.js';
import { pagingQuerySchema, searchAnswerSchema } from '../searchResult.js';
import { recipientHitSchema } from './requests.js';
import { defineRoute } from './route.js';
import { defineView, typed } from './view.js';

// The new-request wizard and the receipt of a submitted request.

export const newRequestViewSchema = defineView('newRequest', {
  organizations: z.array(typed<WizardOrganization>()),
  /** Saved drafts of the user, listed when no draft is open. */
  drafts: z.array(typed<DraftSummary>()),
  draft: typed<OpenDraft>().nullable(),
  step: typed<WizardStep>(),
  /** The sender data of the open draft's organisation, when it has one. */
  senderData: typed<SenderData>().nullable(),
});
export type NewRequestView = z.infer<typeof newRequestViewSchema>;

export const requestReceiptViewSchema = defineView('requestReceipt', {
  requestNumber: z.string(),
  submittedAt: z.string(),
  organizationName: z.string(),
  applicant: z.object({ name: z.string(), dateOfBirth: z.string().nullable() }),
  recipient: z.object({ name: z.string(), phone: z.string() }),
  itemTypes: z.array(z.object({ id: z.string(), name: z.string() })),
  files: z.array(typed<RequestFile>()),
  requestPath: z.string(),
});
export type RequestReceiptView = z.infer<typeof requestReceiptViewSchema>;

/** GET /requests/new: the saved drafts and the Sender step of a new draft. */
export const newRequestPageRoute = defineRoute({
  method: 'GET',
  path: '/requests/new',
  answer: newRequestViewSchema,
});

const draftParams = z.object({ draftId: z.uuid() });

/** GET /requests/new/{draftId}: a draft open at a step (its address can be reloaded or bookmarked). */
export const draftPageRoute = defineRoute({
  method: 'GET',
  path: '/requests/new/:draftId',
  params: draftParams,
  query: z.object({ step: z.string().max(20).optional() }),
  answer: newRequestViewSchema,
});

/** PUT /drafts/{draftId}: creates or replaces the user's draft (the browser makes the id). */
export const saveDraftRoute = defineRoute({
  method: 'PUT',
  path: '/drafts/:draftId',
  params: draftParams,
  body: z.object({
    completedStep: z.number().int().min(0).max(LAST_STEP).default(0),
    data: draftDataSchema,
  }),
  answer: z.strictObject({ draftId: z.string(), savedAt: z.string() }),
});

/** DELETE /drafts/{draftId}: discards the user's draft (gone already is fine). */
export const discardDraftRoute = defineRoute({
  method: 'DELETE',
  path: '/drafts/:draftId',
  params: draftParams,
  answer: z.strictObject({ draftId: z.string() }),
});

const organizationParams = z.object({ organization: z.string().min(1).max(300) });

/** GET /requests/new/sender/{organization}/data: what the later steps offer for the organisation. */
export const senderDataRoute = defineRoute({
  method: 'GET',
  path: '/requests/new/sender/:organization/data',
  params: organizationParams,
  answer: typed<SenderData>(),
});

/** A previous applicant of the organisation, with the request it was last named in. */
export const applicantHitSchema = applicantSchema
  .omit({ authority: true, application: true, tags: true })
  .extend({ lastRequestNumber: z.string() });

/** GET /applicants/{organization}/search: earlier applicants by name, date of birth or reference. */
export const applicantSearchRoute = defineRoute({
  method: 'GET',
  path: '/applicants/:organization/search',
  params: organizationParams,
  query: z.object({
    name: z.string().max(300).optional(),
    dateOfBirth: z.iso
      .date()
      .optional()
      .or(z.literal('').transform(() => undefined)),
    reference: z.string().max(100).optional(),
  }),
  answer: searchAnswerSchema(applicantHitSchema),
});

/**
 * GET /recipients/search: the directory for the wizard and for choosing a request's recipient,
 * each hit whole as a request's recipient so a pick fills the form.
 */
export const recipientSearchRoute = defineRoute({
  method: 'GET',
  path: '/recipients/search',
  query: pagingQuerySchema.extend({
    name: z.string().max(200).optional(),
    phone: z.string().max(40).optional(),
    address: z.string().max(200).optional(),
    email: z.string().max(254).optional(),
  }),
  answer: searchAnswerSchema(recipientHitSchema),
});

/** What the wizard submits: the request's data and the draft it came from (deleted with it). */
export const createRequestBodySchema = requestDataSchema.extend({
  draftId: z.uuid().optional(),
});
export type CreateRequestBody = z.infer<typeof createRequestBodySchema>;

/** POST /requests: submits the wizard's data as a new request; answers where its receipt is. */
export const createRequestRoute = defineRoute({
  method: 'POST',
  path: '/requests',
  body: createRequestBodySchema,
  answer: z.strictObject({ requestNumber: z.string(), location: z.string() }),
});

/** GET /requests/{requestNumber}/receipt: what was submitted. */
export const requestReceiptRoute = defineRoute({
  method: 'GET',
  path: '/requests/:requestNumber/receipt',
  params: z.object({ requestNumber: z.string().max(40) }),
  answer: requestReceiptViewSchema,
});
