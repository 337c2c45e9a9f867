import { richTextFromParagraphs } from '@dossier/core';
import type { Db } from '../../src/db/database.js';

// The configuration issueRequest.test.ts issues with: Acme's email, fax and post templates and the
// request item type whose fields the letter shows.

export async function insertIssueRequestTemplates(db: Db): Promise<void> {
  await db
    .insertInto('configurations')
    .values({ id: 'cfgAcme', scope_path: '/org/acme/', name: 'Acme' })
    .execute();
  const entry = (id: string, name: string, data: Record<string, unknown>, isDefault = false) => ({
    configuration_id: 'cfgAcme',
    id,
    parent_id: 'c',
    type: 'templateEntry',
    name,
    is_default: isDefault,
    data: JSON.stringify(data),
  });
  await db
    .insertInto('configuration_entries')
    .values([
      entry(
        'tplRecords',
        'Records request',
        {
          usage: 'issueRequest',
          subject: 'Records for ${request.applicant.name} (${request.requestNumber})',
          body: {
            type: 'doc',
            content: [
              {
                type: 'paragraph',
                content: [
                  {
                    type: 'text',
                    text: 'Dear ${request.recipient.name}, born ${request.applicant.dateOfBirth date}.',
                  },
                ],
              },
            ],
          },
        },
        true,
      ),
      entry('tplOther', 'Not for issuing', { usage: 'remittanceAdvice', subject: 'x' }),
    ])
    .execute();
  const item = (id: string, name: string, type: string, data: Record<string, unknown>, parent = 'c') => ({
    ...entry(id, name, data),
    type,
    parent_id: parent,
  });
  const question = (id: string, text: string, answerType: string, extra: Record<string, unknown> = {}) => ({
    id,
    name: id,
    richText: richTextFromParagraphs(text),
    answerType,
    nestedForm: [],
    tableColumns: [],
    ...extra,
  });
  await db
    .insertInto('configuration_entries')
    .values([
      item('period', 'Record period', 'smartFormOptionEntry', {}),
      item('period:last5Years', 'Last 5 years', 'smartFormOptionEntry', {}, 'period'),
      item('period:all', 'All records', 'smartFormOptionEntry', {}, 'period'),
      item('itemGp', 'General practice records', 'requestItemTypeEntry', {
        smartForm: [
          question('notes', 'Include consultation notes?', 'yesOrNo'),
          question('period', 'Period of records', 'option', { optionRange: 'period' }),
          question('doctor', 'Name of the treating doctor', 'freeText'),
        ],
        submitterSuppliedFields: [{ id: 'patientId', name: 'Practice patient ID', maxLength: 20 }],
      }),
      item('itemDischarge', 'Discharge summary', 'requestItemTypeEntry', {
        fieldSets: [
          {
            id: 'admission',
            name: 'Admission',
            fields: [{ id: 'ward', name: 'Ward', type: 'singleLineText', maxLength: 40 }],
          },
        ],
      }),
    ])
    .execute();
}
