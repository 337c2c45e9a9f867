import { describe, expect, it } from 'vitest';
import {
  type ContentItemType,
  type ContentLine,
  requestContentLines,
  toWizardItemType,
} from '../src/requests/contentLines.js';
import type { ItemTypeAnswer } from '../src/requests/model.js';
import type { WizardQuestion } from '../src/requests/wizard.js';
import { richTextFromParagraphs } from '../src/richText.js';

const q = (id: string, name: string, answerType: string, extra: Partial<WizardQuestion> = {}) => ({
  id,
  name,
  answerType,
  richText: richTextFromParagraphs(name),
  condition: null,
  options: [],
  nestedForm: [],
  ...extra,
});

const gp: ContentItemType = {
  id: 'gp',
  name: 'Medical records — general practice',
  smartForm: [
    q('consultationNotes', 'Include consultation notes?', 'yesOrNo', {
      nestedForm: [
        q('fromWhen', 'From when?', 'yearMonthAndDate', { condition: 'parentIsYes' }),
        q('whyNot', 'Why not?', 'freeText', { condition: 'parentIsNo' }),
      ],
    }),
    q('period', 'Period of records', 'option', {
      options: [
        { id: 'recordPeriod:last5Years', name: 'Last 5 years' },
        { id: 'recordPeriod:all', name: 'All records' },
      ],
    }),
    q('treatingDoctor', 'Name of the treating doctor', 'freeText'),
    q('extra', 'Anything else', 'freeTextMultiLine'),
  ],
  submitterSuppliedFields: [{ id: 'patientId', name: 'Practice patient ID', maxLength: 20 }],
  fieldSets: [
    {
      id: 'admission',
      name: 'Admission',
      fields: [
        { id: 'ward', name: 'Ward', type: 'singleLineText', maxLength: 40 },
        { id: 'scans', name: 'Scans', type: 'files', maxLength: 100 },
      ],
    },
  ],
};

const answer = (values: Partial<ItemTypeAnswer> = {}): ItemTypeAnswer => ({
  id: 'gp',
  smartFormAnswers: {},
  excludedQuestions: [],
  submitterSuppliedFields: {},
  fieldSets: {},
  files: [],
  ...values,
});

const shown = (lines: ContentLine[]) =>
  lines.map((l) => [l.kind, l.level, l.number ?? '', l.label, l.answer].join('|'));

describe('requestContentLines', () => {
  it('shows every answer with its question text and the option names, in the smart form numbering', () => {
    const lines = requestContentLines(
      {
        itemTypes: [
          answer({
            smartFormAnswers: {
              consultationNotes: 'yes',
              fromWhen: '2020-03-01',
              whyNot: 'hidden, its condition does not hold',
              period: 'recordPeriod:last5Years',
              treatingDoctor: 'Dr Ellis',
            },
            excludedQuestions: ['treatingDoctor'],
            submitterSuppliedFields: { patientId: 'P-1234' },
            fieldSets: { 'admission.ward': 'Ward 7B' },
            fieldSetFiles: { 'admission.scans': [{ key: 'k1', name: 'scan.pdf' }] },
            files: [{ key: 'k2', name: 'referral.pdf' }],
          }),
        ],
        additionalQuestions: [{ text: 'Please include imaging reports.' }, { text: '  ' }],
        additionalFiles: [{ key: 'k3', name: 'consent.pdf' }],
      },
      [gp],
    );
    expect(shown(lines)).toEqual([
      'itemType|0||Medical records — general practice|',
      'question|0|1|Include consultation notes?|Yes',
      'question|1|1.1|From when?|01/03/2020',
      'question|0|2|Period of records|Last 5 years',
      'question|0|3|Anything else|',
      'field|0||Practice patient ID|P-1234',
      'fieldSet|0||Admission|',
      'field|1||Ward|Ward 7B',
      'files|1||Scans|scan.pdf',
      'files|0||Files|referral.pdf',
      'additionalQuestions|0||Additional questions|',
      'additionalQuestion|0|1|Please include imaging reports.|',
      'files|0||Files|consent.pdf',
    ]);
    expect(lines.find((l) => l.label === 'Scans')?.files).toEqual([{ key: 'k1', name: 'scan.pdf' }]);
  });

  it('asks the other branch on No, and labels in the reader language', () => {
    const lines = requestContentLines(
      { itemTypes: [answer({ smartFormAnswers: { consultationNotes: 'no', whyNot: 'Not needed' } })] },
      [gp],
      { yes: 'Ja', no: 'Nein', files: 'Dateien', additionalQuestions: 'Weitere Fragen' },
    );
    expect(shown(lines).slice(1, 3)).toEqual([
      'question|0|1|Include consultation notes?|Nein',
      'question|1|1.1|Why not?|Not needed',
    ]);
  });

  it('keeps answers the configuration no longer knows, under their ids', () => {
    const lines = requestContentLines(
      {
        itemTypes: [
          answer({
            id: 'gone',
            name: 'Old item type',
            smartFormAnswers: { oldQuestion: 'old answer' },
            submitterSuppliedFields: { oldField: 'x' },
            fieldSets: { 'old.field': 'y' },
          }),
        ],
      },
      [gp],
    );
    expect(shown(lines)).toEqual([
      'itemType|0||Old item type|',
      'question|0||oldQuestion|old answer',
      'field|0||oldField|x',
      'field|0||old.field|y',
    ]);
  });
});

describe('toWizardItemType', () => {
  it('resolves option ranges to their choices', () => {
    const type = toWizardItemType(
      {
        id: 'gp',
        name: 'GP',
        data: {
          form: null,
          fieldSets: [],
          smartForm: [
            {
              id: 'period',
              name: 'Period',
              richText: null,
              answerType: 'option',
              optionRange: 'recordPeriod',
              nestedForm: [],
              tableColumns: [],
            },
          ],
          submitterSuppliedFields: [],
          secondarySmartFormLogo: null,
          headerExtrasTemplate: null,
          foreignId: '',
          isApiOnly: false,
          configuration: '',
        },
      },
      [
        { id: 'recordPeriod:all', name: 'All records', parentId: 'recordPeriod' },
        { id: 'other:x', name: 'Other', parentId: 'other' },
      ],
    );
    expect(type.smartForm[0]?.options).toEqual([{ id: 'recordPeriod:all', name: 'All records' }]);
    expect(
      requestContentLines({ itemTypes: [answer({ smartFormAnswers: { period: 'recordPeriod:all' } })] }, [
        type,
      ]),
    ).toMatchObject([{ label: 'GP' }, { label: 'Period', answer: 'All records' }]);
  });
});
