// The enumerations of the configuration.

export const ENTRY_TYPES = [
  'configurationRoot',
  'apiKeyEntry',
  'apiWebhookEntry',
  'publicHolidaysEntry',
  'requestSettingsEntry',
  'requestItemTypeEntry',
  'scopeEntry',
  'smartFormOptionEntry',
  'templateEntry',
  'taskTypeSettingsEntry',
  'scimClientEntry',
  'retentionEntry',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
/** The types a child entry may have (the root exists once per configuration). */
export const CHILD_ENTRY_TYPES = ENTRY_TYPES.filter((t) => t !== 'configurationRoot');

/**
 * The entry types whose entries have children (of their own type): an option list its options, a
 * request item category its item types. The others are leaves, offered no "Add child entry".
 */
export const ENTRY_TYPES_WITH_CHILDREN: readonly string[] = ['smartFormOptionEntry', 'requestItemTypeEntry'];

export const TEMPLATE_USAGES = [
  'issueRequest',
  'autoReminder',
  'resultQualityAssured',
  'resultQualityAssuredLargeFile',
  'resultDiscarded',
  'senderActionRequired',
  'newUserActivation',
  'resetPassword',
  'smartFormHeader',
  'smartFormFooter',
  'thirdPartyResultsPage',
  'thirdPartyFileUploadPage',
  'thirdPartyFileUploadReceipt',
  'thirdPartySmartFormReceipt',
  'workflowTaskTriggered',
  'workflowTaskCompleted',
  'requestClosed',
  'requestReOpened',
  'invoiceRemittanceAdvice',
  'contactUsPage',
  'helpAndSupportPage',
] as const;
export type TemplateUsage = (typeof TEMPLATE_USAGES)[number];
/** Only these usages have a subject. */
export const TEMPLATE_USAGES_WITH_SUBJECT: readonly TemplateUsage[] = [
  'workflowTaskTriggered',
  'workflowTaskCompleted',
  'requestClosed',
  'requestReOpened',
];
export function templateHasSubject(usage: string): boolean {
  return (TEMPLATE_USAGES_WITH_SUBJECT as readonly string[]).includes(usage);
}

export const SCOPE_USAGES = [
  'createUser',
  'submitRequest',
  'assignWorkflowTask',
  'assignUserRole',
  'selfAssignUserRole',
] as const;
export type ScopeUsage = (typeof SCOPE_USAGES)[number];

export const GROUPING_BEHAVIOURS = ['lax', 'strict', 'disabled'] as const;
export type GroupingBehaviour = (typeof GROUPING_BEHAVIOURS)[number];

export const API_SCOPES = [
  'fileRead',
  'fileWrite',
  'payeeRead',
  'payeeWrite',
  'requestRead',
  'requestWrite',
  'requestResultRead',
  'requestResultWrite',
  'requestInvoiceRead',
  'requestInvoiceWrite',
  'userCredentialsVerify',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const FIELD_TYPES = ['singleLineText', 'multiLineText', 'files'] as const;
export const ANSWER_TYPES = [
  'freeText',
  'freeTextMultiLine',
  'yesOrNo',
  'option',
  'decimalNumber',
  'yearMonthAndDate',
  'table',
  'signature',
] as const;
export type AnswerType = (typeof ANSWER_TYPES)[number];
export const TABLE_COLUMN_TYPES = ['freeText', 'decimalNumber', 'yearMonthAndDate'] as const;
export const CONDITIONS = ['parentIsYes', 'parentIsNo', 'anySiblingIsYes', 'anySiblingIsNo'] as const;
export type Condition = (typeof CONDITIONS)[number];
/** Top-level questions have no parent: only the sibling conditions apply to them. */
export const TOP_LEVEL_CONDITIONS: readonly Condition[] = ['anySiblingIsYes', 'anySiblingIsNo'];

export const APPLICANT_REFERENCE_TYPES = ['policyNumber', 'claimNumber', 'medicareNumber', 'other'] as const;

// Limits of section 9.
export const MAX_CHILDREN_SHOWN = 50;
export const MAX_TABLE_COLUMNS = 4;
export const MAX_SMART_FORM_LEVEL = 2;
export const MIN_DECIMAL_PRECISION = 0;
export const MAX_DECIMAL_PRECISION = 5;
export const DEFAULT_PDF_FIELD_MAX_LENGTH = 100;
