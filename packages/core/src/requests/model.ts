import { z } from 'zod';
import { fileRefSchema } from '../configuration/entries.js';
import { normalizeCountry } from '../countries.js';
import { cleanedDirectoryFields, recipientContactSchema } from '../directory.js';
import { cleanAddress } from '../validators.js';

// The request as submitted and stored: sender, applicant ("subject"), the
// recipient snapshot, content and tags. The wizard's draft data is the same shape with every part
// optional; POST /requests and the part edits of the request page validate with these schemas.

const text = (max: number) => z.string().max(max);
const optionalText = (max: number) => text(max).nullish();

export const REQUEST_STATUSES = ['submitted', 'open', 'closed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const ISSUE_REQUEST_METHODS = ['email', 'faxNumber', 'postal'] as const;
export type IssueRequestMethod = (typeof ISSUE_REQUEST_METHODS)[number];

/** A tag as chosen on a record: tag id → chosen value. */
export const tagValuesSchema = z.record(text(100), text(200)).default({});
export type TagValues = z.infer<typeof tagValuesSchema>;

export const requestFileSchema = fileRefSchema.extend({ name: text(300).optional() });
export type RequestFile = z.infer<typeof requestFileSchema>;

export const senderSchema = z.object({
  /** The scope path of the sender organisation (a scope with usage submitRequest). */
  organization: text(300),
  /** The user id of the submitter the request is made on behalf of. */
  submittedOnBehalfOf: optionalText(100),
  referenceNumber: optionalText(100),
  externalUserReferences: z.array(text(100)).max(20).default([]),
});
export type Sender = z.infer<typeof senderSchema>;

export const applicantSchema = z.object({
  name: text(300).default(''),
  /** YYYY-MM-DD */
  dateOfBirth: optionalText(10),
  phone: optionalText(40),
  email: optionalText(254),
  address: optionalText(1000),
  /** An ISO code; a country's English name is taken too and stored as its code. */
  country: optionalText(100),
  authority: requestFileSchema.nullish(),
  application: requestFileSchema.nullish(),
  reference1: optionalText(100),
  reference1Type: optionalText(50),
  reference2: optionalText(100),
  reference2Type: optionalText(50),
  notes: optionalText(10_000),
  tags: tagValuesSchema,
});
export type Applicant = z.infer<typeof applicantSchema>;

/** The applicant as stored: the country as its ISO code, the address cleaned (shared input rules). */
export function cleanApplicantFields(applicant: Applicant): Applicant {
  const country = normalizeCountry(applicant.country);
  const address = cleanAddress(applicant.address);
  // Fields not given stay absent, so an edit's history names only what changed.
  return {
    ...applicant,
    ...(applicant.country == null ? {} : { country: country.ok ? country.value : applicant.country }),
    ...(applicant.address == null ? {} : { address: address.length > 0 ? address : null }),
  };
}

export const requestRecipientSchema = z.object({
  /** Absent for a recipient entered new in the wizard; it is created on submit. */
  recipientId: optionalText(20),
  version: z.number().int().min(0).nullish(),
  name: text(300).default(''),
  phone: text(40).default(''),
  fax: optionalText(40),
  email: optionalText(254),
  webSiteUrl: optionalText(500),
  streetAddress: optionalText(1000),
  postalAddress: optionalText(1000),
  /** An ISO code; a country's English name is taken too and stored as its code. */
  country: optionalText(100),
  notes: optionalText(10_000),
  attachments: z.array(requestFileSchema).max(100).default([]),
  tags: tagValuesSchema,
  contacts: z.array(recipientContactSchema).max(100).default([]),
  /** The contact the request is addressed to. */
  contact: recipientContactSchema.nullish(),
  /**
   * Set by the server, never taken from the client (an addition to the specification): where the
   * details given with the request differ from the directory entry chosen, field by field. Staff
   * confirm them before the request is issued, so a submitter cannot divert the letter.
   */
  directoryDifferences: z
    .record(text(40), z.object({ directory: z.string().nullable(), request: z.string().nullable() }))
    .optional(),
});
export type RequestRecipient = z.infer<typeof requestRecipientSchema>;

/** A request's recipient as stored: web address, addresses and country by the shared input rules. */
export function cleanRequestRecipientFields(recipient: RequestRecipient): RequestRecipient {
  return { ...recipient, ...cleanedDirectoryFields(recipient) };
}

/** The delivery details that must match the directory entry, or be confirmed by staff. */
export const RECIPIENT_DELIVERY_FIELDS = [
  'name',
  'email',
  'fax',
  'phone',
  'postalAddress',
  'streetAddress',
] as const;

/** Where the request's recipient differs from the directory entry it names. */
export function recipientDifferences(
  request: Partial<Record<(typeof RECIPIENT_DELIVERY_FIELDS)[number], string | null | undefined>>,
  directory: Partial<Record<(typeof RECIPIENT_DELIVERY_FIELDS)[number], string | null | undefined>>,
): NonNullable<RequestRecipient['directoryDifferences']> {
  const norm = (v: string | null | undefined) => (v ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  const differences: NonNullable<RequestRecipient['directoryDifferences']> = {};
  for (const field of RECIPIENT_DELIVERY_FIELDS) {
    if (norm(request[field]) !== norm(directory[field]))
      differences[field] = { directory: directory[field] ?? null, request: request[field] ?? null };
  }
  return differences;
}

export const itemTypeAnswerSchema = z.object({
  /** The configuration entry id of the request item type. */
  id: text(200),
  name: optionalText(300),
  /** Smart form answers by question id (values as the smart form question types define). */
  smartFormAnswers: z.record(text(200), z.unknown()).default({}),
  /** Question ids the submitter excluded. */
  excludedQuestions: z.array(text(200)).max(500).default([]),
  submitterSuppliedFields: z.record(text(200), text(100_000)).default({}),
  /** Field set values: field id → text. */
  fieldSets: z.record(text(200), text(100_000)).default({}),
  /** Files of field set fields of type files: field key (`fieldSetId.fieldId`) → files. */
  fieldSetFiles: z.record(text(200), z.array(requestFileSchema).max(20)).optional(),
  files: z.array(requestFileSchema).max(50).default([]),
});
export type ItemTypeAnswer = z.infer<typeof itemTypeAnswerSchema>;

export const contentSchema = z.object({
  itemTypes: z.array(itemTypeAnswerSchema).max(50).default([]),
  additionalQuestions: z
    .array(z.object({ text: text(10_000) }))
    .max(50)
    .default([]),
  additionalInstructions: optionalText(10_000),
  additionalInstructionsToHandler: optionalText(10_000),
  additionalFiles: z.array(requestFileSchema).max(50).default([]),
});
export type RequestContent = z.infer<typeof contentSchema>;

export const requestDataSchema = z.object({
  sender: senderSchema,
  applicant: applicantSchema,
  recipient: requestRecipientSchema,
  content: contentSchema,
  tags: tagValuesSchema,
});
export type RequestData = z.infer<typeof requestDataSchema>;

/** What a draft may hold: any part, possibly incomplete. */
export const draftDataSchema = z.object({
  sender: senderSchema.partial().optional(),
  applicant: applicantSchema.partial().optional(),
  recipient: requestRecipientSchema.partial().optional(),
  content: contentSchema.partial().optional(),
  tags: tagValuesSchema.optional(),
});
export type DraftData = z.infer<typeof draftDataSchema>;
/** A draft's content: any field may be missing, or undefined as the draft schema parses it. */
export type ContentDraft = NonNullable<DraftData['content']>;

/** The KPI figures of the request page, in days (docs/ARCHITECTURE.md decides the rules). */
export interface RequestKpi {
  businessDaysElapsed: number;
  businessDaysElapsedLessPended: number;
  daysPendedInternal: number;
  daysPendedExternal: number;
  calendarDaysElapsed: number;
}
