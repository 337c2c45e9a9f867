import { z } from 'zod';
import type { RequestFile } from '../requests/model.js';
import type {
  DraftSummary,
  OpenDraft,
  SenderData,
  WizardOrganization,
  WizardStep,
} from '../requests/wizard.js';
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
