import {
  configurationIdOf,
  parentIdOf,
  type RichTextDoc,
  ROOT_ENTRY_ID,
  richTextFromParagraphs,
  TEMPLATE_USAGES,
  type TemplateUsage,
  templateHasSubject,
  WORKFLOW_TASK_TYPES,
  type WorkflowTaskType,
} from '@dossier/core';
import { DEFAULT_PAGE_BODIES } from '../features/pages/content.js';
import type { DbOrTrx } from './database.js';
import { seedDemoItemTypes } from './seedRequests.js';

// The configuration every installation starts with: the root configuration '/' (scopes, task
// type settings, request settings, a template for every usage, Australian public holidays) and,
// with the demo, configurations of the two sender organisations.

interface SeedEntry {
  id: string;
  type: string;
  name: string;
  order?: number;
  isDefault?: boolean;
  data: unknown;
}

const DUE_DAYS: Record<WorkflowTaskType, number> = {
  senderActionRequired: 10,
  senderActionResponse: 2,
  senderUrgentNote: 1,
  issueRequest: 2,
  confirmIssuedRequest: 3,
  followUp: 10,
  classifyIncomingMessage: 1,
  qualityAssureResult: 2,
  payInvoice: 5,
  appointment: 10,
  appointmentReminder: 1,
  actionDeferred: 5,
  exception: 1,
  fallback: 1,
};

const TEMPLATE_TEXT: Record<TemplateUsage, { subject?: string; body: string[] }> = {
  issueRequest: {
    body: [
      'Dear ${request.recipient.name},',
      'Please supply the records described below for ${request.applicant.name} (date of birth ${request.applicant.dateOfBirth date}). Quote request ${request.requestNumber} in your reply.',
      'The signed authority is attached.',
      'You can answer online, upload the records and your invoice at ${request.recipientAccess.url} with the passcode ${request.recipientAccess.passcode}.',
    ],
  },
  autoReminder: {
    body: [
      'Dear ${request.recipient.name},',
      'We are still waiting for the records of request ${request.requestNumber}, sent on ${request.issuedAt date}.',
      'You can answer online, upload the records and your invoice at ${request.recipientAccess.url} (the passcode is ${request.recipientAccess.passcode}).',
    ],
  },
  resultQualityAssured: {
    body: ['A result of request ${request.requestNumber} is ready: ${result.url link "open the result"}.'],
  },
  resultQualityAssuredLargeFile: {
    body: ['A large result of request ${request.requestNumber} is ready to download: ${result.url link}.'],
  },
  resultDiscarded: { body: ['A result received for request ${request.requestNumber} was discarded.'] },
  senderActionRequired: { body: ['Request ${request.requestNumber} needs your action: ${task.notice}'] },
  newUserActivation: { body: ['Welcome ${user.name}.', 'Activate your account: ${user.activationUrl link}'] },
  resetPassword: { body: ['Hello ${user.name},', 'Reset your password: ${user.resetPasswordUrl link}'] },
  smartFormHeader: { body: ['Request ${request.requestNumber}, applicant ${request.applicant.name}'] },
  smartFormFooter: { body: ['Please return this form to ${request.sender.name}.'] },
  thirdPartyResultsPage: { body: ['Results of request ${request.requestNumber}.'] },
  thirdPartyFileUploadPage: { body: ['Upload the records of request ${request.requestNumber} here.'] },
  thirdPartyFileUploadReceipt: {
    body: ['Thank you: we received your files for request ${request.requestNumber}.'],
  },
  thirdPartySmartFormReceipt: {
    body: ['Thank you: we received your form for request ${request.requestNumber}.'],
  },
  workflowTaskTriggered: {
    subject: '${task.type enum workflowTaskType} for ${request.requestNumber}',
    body: [
      'A task was created for request ${request.requestNumber}: ${task.subject}. Due ${task.dueAt date}.',
    ],
  },
  workflowTaskCompleted: {
    subject: '${task.type enum workflowTaskType} completed for ${request.requestNumber}',
    body: ['The task ${task.subject} of request ${request.requestNumber} is complete.'],
  },
  requestClosed: {
    subject: 'Request ${request.requestNumber} closed',
    body: ['Request ${request.requestNumber} was closed on ${request.closedAt date}.'],
  },
  requestReOpened: {
    subject: 'Request ${request.requestNumber} re-opened',
    body: ['Request ${request.requestNumber} was re-opened.'],
  },
  invoiceRemittanceAdvice: {
    body: ['Remittance advice for the invoice of request ${request.requestNumber}.'],
  },
  contactUsPage: { body: [] },
  helpAndSupportPage: { body: [] },
};

function templateBody(usage: TemplateUsage): RichTextDoc {
  if (usage === 'contactUsPage') return DEFAULT_PAGE_BODIES.contact;
  if (usage === 'helpAndSupportPage') return DEFAULT_PAGE_BODIES.help;
  return richTextFromParagraphs(...TEMPLATE_TEXT[usage].body);
}

const words = (id: string) => id.replace(/([A-Z])/g, ' $1').replace(/^./, (c) => c.toUpperCase());

/** Australian national public holidays. */
export const AU_HOLIDAYS: Record<number, string[]> = {
  // 2025 too: the demo's year of history (seedHistory.ts) reaches back into it.
  2025: [
    '2025-01-01',
    '2025-01-27',
    '2025-04-18',
    '2025-04-19',
    '2025-04-21',
    '2025-04-25',
    '2025-06-09',
    '2025-12-25',
    '2025-12-26',
  ],
  2026: [
    '2026-01-01',
    '2026-01-26',
    '2026-04-03',
    '2026-04-04',
    '2026-04-06',
    '2026-04-25',
    '2026-06-08',
    '2026-12-25',
    '2026-12-28',
  ],
  2027: [
    '2027-01-01',
    '2027-01-26',
    '2027-03-26',
    '2027-03-27',
    '2027-03-29',
    '2027-04-26',
    '2027-06-14',
    '2027-12-27',
    '2027-12-28',
  ],
};

function scope(
  id: string,
  name: string,
  scopePath: string,
  legalEntity: string,
  usages: string[],
  order: number,
  secondFactorRoles: string[] = [],
): SeedEntry {
  return {
    id,
    type: 'scopeEntry',
    name,
    order,
    data: {
      scopePath,
      legalEntity,
      parentLegalEntity: scopePath === '/' ? '' : 'Dossier Pty Ltd',
      usages,
      scopeTags: {},
      assignWorkflowTaskScope: usages.includes('assignWorkflowTask') ? '/org/dossier/' : '',
      workflowTaskAssignerGroupingBehaviour: 'lax',
      ipRanges: [],
      secondFactorRoles,
    },
  };
}

export function rootEntries(secondFactorRoles: string[] = []): SeedEntry[] {
  return [
    scope('scopeRoot', 'All scopes', '/', 'Dossier Pty Ltd', [], 1, secondFactorRoles),
    scope(
      'scopeDossier',
      'Dossier',
      '/org/dossier/',
      'Dossier Pty Ltd',
      ['assignWorkflowTask', 'assignUserRole', 'createUser'],
      2,
    ),
    scope(
      'scopeAcme',
      'Acme Insurance',
      '/org/acme/',
      'Acme Insurance Ltd',
      ['submitRequest', 'createUser', 'assignUserRole', 'selfAssignUserRole'],
      3,
    ),
    scope(
      'scopeGlobex',
      'Globex Legal',
      '/org/globex/',
      'Globex Legal LLP',
      ['submitRequest', 'createUser', 'assignUserRole', 'selfAssignUserRole'],
      4,
    ),
    // Issue 36: every install keeps the access log six years (the default) and, until told
    // otherwise, requests' files and personal data for good.
    {
      id: 'retention',
      type: 'retentionEntry',
      name: 'Retention',
      isDefault: true,
      data: { deleteFilesAfterMonths: null, deIdentifyAfterMonths: null, keepAccessLogMonths: 72 },
    },
    {
      id: 'requestSettings',
      type: 'requestSettingsEntry',
      name: 'Request settings',
      order: 10,
      isDefault: true,
      data: { requestNumberPrefix: 'DOS' },
    },
    ...Object.entries(AU_HOLIDAYS).map(([year, dates], i) => ({
      id: `publicHolidays${year}`,
      type: 'publicHolidaysEntry',
      name: `Public holidays ${year}`,
      order: 20 + i,
      data: { dates },
    })),
    ...WORKFLOW_TASK_TYPES.map((taskType, i) => ({
      id: `task${taskType.charAt(0).toUpperCase()}${taskType.slice(1)}`,
      type: 'taskTypeSettingsEntry',
      name: words(taskType),
      order: 30 + i,
      data: { taskType, defaultDueDateInBusinessDays: DUE_DAYS[taskType] },
    })),
    ...TEMPLATE_USAGES.map((usage, i) => ({
      id: `template${usage.charAt(0).toUpperCase()}${usage.slice(1)}`,
      type: 'templateEntry',
      name: words(usage),
      order: 50 + i,
      data: {
        usage,
        subject: templateHasSubject(usage) ? TEMPLATE_TEXT[usage].subject : undefined,
        body: templateBody(usage),
      },
    })),
  ];
}

function demoEntries(prefix: string): SeedEntry[] {
  return [
    {
      id: 'requestSettings',
      type: 'requestSettingsEntry',
      name: 'Request settings',
      isDefault: true,
      data: { requestNumberPrefix: prefix },
    },
    // Issue 36: files seven years after closing, personal data ten years after, the access log six
    // years (the default, written out).
    {
      id: 'retention',
      type: 'retentionEntry',
      name: 'Retention',
      isDefault: true,
      data: { deleteFilesAfterMonths: 84, deIdentifyAfterMonths: 120, keepAccessLogMonths: 72 },
    },
  ];
}

async function insert(db: DbOrTrx, scopePath: string, name: string, entries: SeedEntry[]): Promise<void> {
  const id = configurationIdOf(scopePath);
  await db
    .insertInto('configurations')
    .values({ id, scope_path: scopePath, name, updated_by: null })
    .execute();
  if (entries.length === 0) return;
  await db
    .insertInto('configuration_entries')
    .values(
      entries.map((e) => ({
        configuration_id: id,
        id: e.id,
        parent_id: parentIdOf(e.id) ?? ROOT_ENTRY_ID,
        type: e.type,
        name: e.name,
        order: e.order ?? 0,
        is_default: e.isDefault ?? false,
        data: JSON.stringify(e.data),
      })),
    )
    .execute();
}

/**
 * Seeds the configuration of an empty database: always the root, the demo's only with demo data.
 * `secondFactorForAdministrators` (the demo seed's, issue 35) makes the root require a second factor
 * of every administrator; test worlds seeding the configuration alone leave it out, so that their
 * administrators sign in with a password.
 */
export async function seedConfiguration(
  db: DbOrTrx,
  options: { demo: boolean; secondFactorForAdministrators?: boolean },
): Promise<void> {
  const existing = await db.selectFrom('configurations').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  await insert(
    db,
    '/',
    'Dossier',
    rootEntries(options.secondFactorForAdministrators ? ['c:roles:admin'] : []),
  );
  if (!options.demo) return;
  await insert(db, '/org/acme/', 'Acme Insurance', demoEntries('ACM'));
  await insert(db, '/org/globex/', 'Globex Legal', demoEntries('GLX'));
  await seedDemoItemTypes(db);
}
