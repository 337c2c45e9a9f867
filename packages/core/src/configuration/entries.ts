import { z } from 'zod';
import { fieldErrorsOf } from '../errors.js';
import { parseIsoTimeOfDay } from '../inputRules.js';
import type { PasswordPolicy } from '../passwordPolicy.js';
import { ROLES } from '../permissions.js';
import { WORKFLOW_TASK_TYPES } from '../tasks.js';
import {
  ANSWER_TYPES,
  API_SCOPES,
  APPLICANT_REFERENCE_TYPES,
  CONDITIONS,
  ENTRY_TYPES,
  FIELD_TYPES,
  GROUPING_BEHAVIOURS,
  SCOPE_USAGES,
  TABLE_COLUMN_TYPES,
  TEMPLATE_USAGES,
} from './enums.js';

// The data of each entry type. Every field has a default, so an entry read from storage or built
// new is always complete; the rules that need more than a shape are in validateEntry.ts.

const richText = z.unknown().default({ type: 'doc', content: [] });
const text = z.string().default('');
const flag = z.boolean().default(false);
const emails = z.array(z.string()).default([]);
/** A reference to a stored file; `pending` until the upload finished (files arrive with issue 5). */
export const fileRefSchema = z.object({
  key: z.string(),
  name: z.string().optional(),
  pending: z.boolean().optional(),
});
const file = fileRefSchema.nullable().default(null);

export const configurationRootSchema = z.object({ scopePath: z.string().default('/') });

export const rsaPublicKeySchema = z.object({ modulus: z.string(), exponent: z.string() });
export const apiKeyEntrySchema = z.object({
  publicKey: rsaPublicKeySchema.nullable().default(null),
  apiScopes: z.array(z.enum(API_SCOPES)).default([]),
});

export const apiWebhookEntrySchema = z.object({
  url: text,
  /** Server-generated; shown read-only. The private key never leaves the server. */
  publicKey: z.string().optional(),
});

/** Where the provider's `sub` arrives in a SCIM user: it becomes the user's external user id. */
export const SCIM_SUBJECT_ATTRIBUTES = ['externalId', 'userName'] as const;
export const scimGroupRoleSchema = z.object({ group: text, role: text, scopePath: text });
/**
 * A SCIM client (an identity provider provisioning users). Its bearer token is not part of the
 * entry: only its hash is stored, apart, and it is shown once when made (features/scim).
 */
export const scimClientEntrySchema = z.object({
  subjectAttribute: z.enum(SCIM_SUBJECT_ATTRIBUTES).default('externalId'),
  /** Members of a provider group hold these roles, granted and removed with the membership. */
  groupRoles: z.array(scimGroupRoleSchema).default([]),
});

export const publicHolidaysEntrySchema = z.object({ dates: z.array(z.string()).default([]) });

export const ipRangeSchema = z.object({
  id: z.string(),
  isDefault: flag,
  /** Our addition: the addresses of the range, as CIDRs (the spec names only id and isDefault). */
  cidrs: z.array(z.string()).default([]),
});
export const passwordPolicySchema = z.object({
  minLength: z.number().int().min(1).max(256),
  minUpperCase: z.number().int().min(0).max(64),
  minLowerCase: z.number().int().min(0).max(64),
  minDigits: z.number().int().min(0).max(64),
  minSymbolOrPunctation: z.number().int().min(0).max(64),
}) satisfies z.ZodType<PasswordPolicy>;
export const scopeEntrySchema = z.object({
  scopePath: text,
  legalEntity: text,
  parentLegalEntity: text,
  usages: z.array(z.enum(SCOPE_USAGES)).default([]),
  scopeTags: z.record(z.string(), z.string()).default({}),
  assignWorkflowTaskScope: text,
  workflowTaskAssignerGroupingBehaviour: z.enum(GROUPING_BEHAVIOURS).default('lax'),
  ipRanges: z.array(ipRangeSchema).default([]),
  passwordPolicy: passwordPolicySchema.optional(),
  /** A first single sign-on whose subject matches nobody links the user of this scope whose email
   * the provider asserts as verified (off unless the scope turns it on). */
  linkSsoByVerifiedEmail: z.boolean().default(false),
  /** The roles whose holders must have a second factor, here and in every scope below (issue 35). */
  secondFactorRoles: z.array(z.enum(ROLES)).default([]),
  /** Addresses (CIDRs) whose failed sign-ins are not limited per address, such as an office's own
   * network (issue 35). Read from the root scope's entry alone: the address limit comes before any
   * account, and so any scope, is known. */
  trustedAddresses: z.array(z.string()).default([]),
});

export const smartFormOptionEntrySchema = z.object({ foreignId: text });

export const templateEntrySchema = z.object({
  usage: z.enum(TEMPLATE_USAGES).default('issueRequest'),
  subject: z.string().optional(),
  body: richText,
});

export const taskTypeSettingsEntrySchema = z.object({
  taskType: z.enum(WORKFLOW_TASK_TYPES).default('issueRequest'),
  defaultDueDateInBusinessDays: z.number().int().min(0).max(365).default(5),
  /** When set, a task falls due at this time of the due day (an ISO duration, PT17H0M). */
  dueTimeOfDay: z
    .string()
    .refine((v) => v === '' || parseIsoTimeOfDay(v) !== undefined, 'Enter a time of day, such as 17:00.')
    .default(''),
  notifyRequestSenderWhenTriggered: flag,
  notifyRequestSenderWhenCompleted: flag,
  notifyExternalUsersWhenTriggered: flag,
  notifyExternalUsersWhenCompleted: flag,
  notifyOtherWhenTriggered: emails,
  notifyOtherWhenCompleted: emails,
});

export const DEFAULT_RECIPIENT_ACCESS_DAYS = 90;
export const DEFAULT_RECIPIENT_UPLOAD_LIMIT_MB = 200;

export const REQUEST_SETTINGS_FLAGS = [
  'disableWorkflowTasks',
  'disableResultQualityAssurance',
  'disableReOpenRequest',
  'disableEditContentAfterSubmit',
  'autoCloseRequestWhenAllResultsAreQualityAssured',
  'hideUploadFileOnSmartFormsLandingPage',
  'skipResultUploadsLandingPageForSingleForm',
  'showCompletionStatusOnSmartFormsLandingPage',
  'onlyAllowSingleSubmissionPerSmartForm',
  'autoIssueSmartFormRequests',
  'notifyRequestSenderWhenClosed',
  'notifyRequestSenderWhenReOpened',
  'notifyExternalUsersWhenClosed',
  'notifyExternalUsersWhenReOpened',
  'disableRecipientPage',
] as const;
export const REQUEST_SETTINGS_RECIPIENTS = [
  'resultQualityAssuredRecipient',
  'resultQualityAssuredLargeFileRecipient',
  'resultDiscardedRecipient',
  'resultNotificationsBccRecipient',
] as const;
export const requestSettingsEntrySchema = z.object({
  requestNumberPrefix: text,
  sharedScopePath: text,
  ...Object.fromEntries(REQUEST_SETTINGS_RECIPIENTS.map((k) => [k, text])),
  ...Object.fromEntries(REQUEST_SETTINGS_FLAGS.map((k) => [k, flag])),
  notifyOtherWhenClosed: emails,
  notifyOtherWhenReOpened: emails,
  smartFormLogo: file,
  remittanceAdviceLogo: file,
  preLoadedApplicantAuthority: file,
  applicantReference1Required: flag,
  applicantReference1DefaultType: z.enum(APPLICANT_REFERENCE_TYPES).nullable().default(null),
  customResultFileName: text,
  customInvoiceFileName: text,
  preSelectedRequestItemTypes: z.array(z.string()).default([]),
  /** The recipient's page (issue 34): how long a link works, and how much one access may upload. */
  recipientAccessDays: z.number().int().min(1).max(3650).default(DEFAULT_RECIPIENT_ACCESS_DAYS),
  recipientUploadLimitMb: z.number().int().min(1).max(10_000).default(DEFAULT_RECIPIENT_UPLOAD_LIMIT_MB),
}) as unknown as z.ZodType<RequestSettings>;

export interface RequestSettings
  extends Record<(typeof REQUEST_SETTINGS_FLAGS)[number], boolean>,
    Record<(typeof REQUEST_SETTINGS_RECIPIENTS)[number], string> {
  requestNumberPrefix: string;
  sharedScopePath: string;
  notifyOtherWhenClosed: string[];
  notifyOtherWhenReOpened: string[];
  smartFormLogo: FileRef | null;
  remittanceAdviceLogo: FileRef | null;
  preLoadedApplicantAuthority: FileRef | null;
  applicantReference1Required: boolean;
  applicantReference1DefaultType: (typeof APPLICANT_REFERENCE_TYPES)[number] | null;
  customResultFileName: string;
  customInvoiceFileName: string;
  recipientAccessDays: number;
  recipientUploadLimitMb: number;
  preSelectedRequestItemTypes: string[];
}
export type FileRef = z.infer<typeof fileRefSchema>;

export const tableColumnSchema = z.object({
  id: text,
  foreignId: z.string().optional(),
  name: text,
  answerType: z.enum(TABLE_COLUMN_TYPES).default('freeText'),
  decimalPrecision: z.number().int().optional(),
});
export type TableColumn = z.infer<typeof tableColumnSchema>;

export interface SmartFormQuestion {
  id: string;
  foreignId?: string;
  condition?: (typeof CONDITIONS)[number] | null;
  richText: unknown;
  name: string;
  answerType: (typeof ANSWER_TYPES)[number];
  /** The id of a smart form option entry whose children are the choices (undefined: cleared in the editor). */
  optionRange?: string | undefined;
  decimalPrecision?: number;
  /** Undefined: cleared in the editor. */
  linesOnPdf?: number | undefined;
  nestedForm: SmartFormQuestion[];
  tableColumns: TableColumn[];
}
export const smartFormQuestionSchema: z.ZodType<SmartFormQuestion> = z.lazy(() =>
  z.object({
    id: text,
    foreignId: z.string().optional(),
    condition: z.enum(CONDITIONS).nullable().optional(),
    richText,
    name: text,
    answerType: z.enum(ANSWER_TYPES).default('freeText'),
    optionRange: z.string().optional(),
    decimalPrecision: z.number().int().optional(),
    linesOnPdf: z.number().int().min(0).max(50).optional(),
    nestedForm: z.array(smartFormQuestionSchema).default([]),
    tableColumns: z.array(tableColumnSchema).default([]),
  }),
) as z.ZodType<SmartFormQuestion>;

export const pdfFieldSchema = z.object({
  id: text,
  name: text,
  type: z.enum(FIELD_TYPES).default('singleLineText'),
  maxLength: z.number().int().min(1).max(100000).default(100),
  formFieldKey: z.string().optional(),
  autoFillFieldPaths: z.array(z.string()).default([]),
  autoFillFormat: z.string().optional(),
});
export const pdfFieldSetSchema = z.object({
  id: text,
  name: text,
  fields: z.array(pdfFieldSchema).default([]),
});
export const submitterSuppliedFieldSchema = z.object({
  id: text,
  name: text,
  maxLength: z.number().int().min(1).max(100000).default(100),
});

export const requestItemTypeEntrySchema = z.object({
  form: file,
  fieldSets: z.array(pdfFieldSetSchema).default([]),
  smartForm: z.array(smartFormQuestionSchema).default([]),
  submitterSuppliedFields: z.array(submitterSuppliedFieldSchema).default([]),
  secondarySmartFormLogo: file,
  headerExtrasTemplate: richText,
  foreignId: text,
  isApiOnly: flag,
  /** Free-form settings passed to integrations. */
  configuration: text,
});

/** The longest retention the editor takes: a hundred years. */
export const RETENTION_MAX_MONTHS = 1200;
const months = z.number().int().nullable().default(null);
/** The shortest time the access log keeps its entries (the database refuses less, too). */
export const ACCESS_LOG_MIN_MONTHS = 12;
/**
 * Six years: what HIPAA asks of the documentation of a covered entity's privacy practices
 * (45 CFR 164.316(b)(2)), the access audit among them.
 */
export const ACCESS_LOG_DEFAULT_MONTHS = 72;
/**
 * How long a closed request keeps what it holds (features/retention): its files are removed from
 * storage `deleteFilesAfterMonths` after closing, the applicant's personal data de-identified
 * `deIdentifyAfterMonths` after closing. Null keeps them. Inherited down the tree like the others.
 * `keepAccessLogMonths`: the access log's entries are kept this long after they were written
 * (whole months leave it, and only when no scope asks for longer: the log is one for all).
 */
export const retentionEntrySchema = z.object({
  deleteFilesAfterMonths: months,
  deIdentifyAfterMonths: months,
  keepAccessLogMonths: z.number().int().nullable().default(ACCESS_LOG_DEFAULT_MONTHS),
});

export const ENTRY_DATA_SCHEMAS = {
  configurationRoot: configurationRootSchema,
  apiKeyEntry: apiKeyEntrySchema,
  apiWebhookEntry: apiWebhookEntrySchema,
  publicHolidaysEntry: publicHolidaysEntrySchema,
  requestSettingsEntry: requestSettingsEntrySchema,
  requestItemTypeEntry: requestItemTypeEntrySchema,
  scopeEntry: scopeEntrySchema,
  smartFormOptionEntry: smartFormOptionEntrySchema,
  templateEntry: templateEntrySchema,
  taskTypeSettingsEntry: taskTypeSettingsEntrySchema,
  scimClientEntry: scimClientEntrySchema,
  retentionEntry: retentionEntrySchema,
} as const;

export type ApiKeyEntryData = z.infer<typeof apiKeyEntrySchema>;
export type ApiWebhookEntryData = z.infer<typeof apiWebhookEntrySchema>;
export type PublicHolidaysEntryData = z.infer<typeof publicHolidaysEntrySchema>;
export type ScopeEntryData = z.infer<typeof scopeEntrySchema>;
export type SmartFormOptionEntryData = z.infer<typeof smartFormOptionEntrySchema>;
export type TemplateEntryData = z.infer<typeof templateEntrySchema>;
export type TaskTypeSettingsEntryData = z.infer<typeof taskTypeSettingsEntrySchema>;
export type ScimClientEntryData = z.infer<typeof scimClientEntrySchema>;
export type RetentionEntryData = z.infer<typeof retentionEntrySchema>;
export type ScimGroupRole = z.infer<typeof scimGroupRoleSchema>;
export type RequestSettingsEntryData = RequestSettings;
export type RequestItemTypeEntryData = z.infer<typeof requestItemTypeEntrySchema>;
export type PdfFieldSet = z.infer<typeof pdfFieldSetSchema>;
export type PdfField = z.infer<typeof pdfFieldSchema>;
export type IpRange = z.infer<typeof ipRangeSchema>;

export interface EntryDataOf {
  configurationRoot: z.infer<typeof configurationRootSchema>;
  apiKeyEntry: ApiKeyEntryData;
  apiWebhookEntry: ApiWebhookEntryData;
  publicHolidaysEntry: PublicHolidaysEntryData;
  requestSettingsEntry: RequestSettingsEntryData;
  requestItemTypeEntry: RequestItemTypeEntryData;
  scopeEntry: ScopeEntryData;
  smartFormOptionEntry: SmartFormOptionEntryData;
  templateEntry: TemplateEntryData;
  taskTypeSettingsEntry: TaskTypeSettingsEntryData;
  scimClientEntry: ScimClientEntryData;
  retentionEntry: RetentionEntryData;
}

/** The stored data of an entry of a type, completed with defaults; undefined when not that shape. */
export function parseEntryData<T extends keyof EntryDataOf>(
  type: T,
  data: unknown,
): EntryDataOf[T] | undefined {
  const result = (ENTRY_DATA_SCHEMAS[type] as z.ZodType).safeParse(data ?? {});
  return result.success ? (result.data as EntryDataOf[T]) : undefined;
}

/** Why the data does not have the fields of its type: a message per field ('data.dueTimeOfDay'). */
export function entryDataIssues(type: keyof EntryDataOf, data: unknown): Record<string, string> {
  const result = (ENTRY_DATA_SCHEMAS[type] as z.ZodType).safeParse(data ?? {});
  return result.success ? {} : fieldErrorsOf(result.error.issues, { prefix: 'data' });
}

/** The common fields of every entry, as exchanged with the browser. */
export const entryTypeSchema = z.enum(ENTRY_TYPES);
export interface ConfigurationEntry<T extends keyof EntryDataOf = keyof EntryDataOf> {
  id: string;
  name: string;
  type: T;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  data: EntryDataOf[T];
}
