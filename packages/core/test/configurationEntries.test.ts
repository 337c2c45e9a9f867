import { describe, expect, it } from 'vitest';
import {
  configurationIdOf,
  effectiveEntries,
  entryScopesOutside,
  fieldPathInWords,
  invalidFieldsMessage,
  isCidr,
  parentIdOf,
  questionNameOf,
  richTextFromParagraphs,
  type SmartFormQuestion,
  type StoredConfiguration,
  type StoredEntry,
  validateEntry,
} from '../src/index.js';

function entry(
  configurationId: string,
  scopePath: string,
  id: string,
  more: Partial<StoredEntry> = {},
): StoredEntry {
  return {
    configurationId,
    scopePath,
    id,
    parentId: parentIdOf(id),
    type: 'templateEntry',
    name: id,
    order: 0,
    isDefault: false,
    isDisabled: false,
    data: {},
    version: 1,
    ...more,
  };
}

const configs: StoredConfiguration[] = [
  {
    id: 'root',
    scopePath: '/',
    name: 'Root',
    order: 0,
    isDisabled: false,
    entries: [
      entry('root', '/', 'a', { order: 2 }),
      entry('root', '/', 'b', { order: 1 }),
      entry('root', '/', 'c1', { isDefault: true, order: 9 }),
      entry('root', '/', 'off', { isDisabled: true }),
      entry('root', '/', 'off:child'),
    ],
  },
  {
    id: 'orgAcme',
    scopePath: '/org/acme/',
    name: 'Acme',
    order: 0,
    isDisabled: false,
    entries: [
      entry('orgAcme', '/org/acme/', 'a', { name: 'acme a', order: 2 }),
      entry('orgAcme', '/org/acme/', 'b', { isDisabled: true }),
    ],
  },
  {
    id: 'off',
    scopePath: '/org/globex/',
    name: 'Off',
    order: 0,
    isDisabled: true,
    entries: [entry('off', '/org/globex/', 'a', { name: 'globex a' })],
  },
];

describe('inheritance', () => {
  it('takes the nearest entry per id, ignores disabled ones and what is below them, default first', () => {
    expect(
      effectiveEntries(configs, '/org/acme/branch/x/').map((e) => `${e.id}@${e.configurationId}`),
    ).toEqual(['c1@root', 'a@orgAcme']);
    expect(effectiveEntries(configs, '/').map((e) => e.id)).toEqual(['c1', 'b', 'a']);
  });
  it('skips a disabled configuration', () => {
    expect(effectiveEntries(configs, '/org/globex/').find((e) => e.id === 'a')?.configurationId).toBe('root');
  });
  it.each([
    ['a:b:c', 'a:b'],
    ['a', 'c'],
  ])('the parent of %s is %s', (id, parent) => expect(parentIdOf(id)).toBe(parent));
  it.each([
    ['/', 'root'],
    ['/org/acme/', 'orgAcme'],
    ['/org/acme/branch/Sydney 1/', 'orgAcmeBranchSydney1'],
  ])('configuration id of %s is %s', (path, id) => expect(configurationIdOf(path)).toBe(id));
});

const base = { id: 'x', name: 'X', order: 0 };
const fieldsOf = (type: Parameters<typeof validateEntry>[0]['type'], data: unknown, more = {}) =>
  validateEntry({ ...base, ...more, type, data }).errors;

describe('common entry rules', () => {
  it.each([
    [{ name: '' }, 'name'],
    [{ name: '  ' }, 'name'],
    [{ order: 1.5 }, 'order'],
    [{ id: 'Bad' }, 'id'],
    [{ id: 'a:B' }, 'id'],
  ])('%j is refused on %s', (more, field) =>
    expect(fieldsOf('smartFormOptionEntry', {}, more)).toHaveProperty(field),
  );
  it('accepts nested ids', () =>
    expect(fieldsOf('smartFormOptionEntry', {}, { id: 'list:yes' })).toEqual({}));
  it('refuses data of the wrong shape, naming the field', () =>
    expect(fieldsOf('apiKeyEntry', { apiScopes: ['nope'] })).toHaveProperty(['data.apiScopes.0']));
});

describe('entry types', () => {
  it.each([
    ['apiKeyEntry', { publicKey: null }, 'data.publicKey'],
    ['apiWebhookEntry', { url: '' }, 'data.url'],
    ['apiWebhookEntry', { url: 'http://example.com' }, 'data.url'],
    ['scopeEntry', { scopePath: '' }, 'data.scopePath'],
    ['scopeEntry', { scopePath: '/org/' }, 'data.scopePath'],
    [
      'scopeEntry',
      { scopePath: '/org/a/', assignWorkflowTaskScope: '/Org/' },
      'data.assignWorkflowTaskScope',
    ],
    ['scopeEntry', { scopePath: '/org/a/', ipRanges: [{ id: 'Bad', cidrs: [] }] }, 'data.ipRanges.0.id'],
    [
      'scopeEntry',
      { scopePath: '/org/a/', ipRanges: [{ id: 'a', cidrs: ['10.0.0.0/33'] }] },
      'data.ipRanges.0.cidrs',
    ],
    ['scopeEntry', { scopePath: '/org/a/', ipRanges: [{ id: 'a' }, { id: 'a' }] }, 'data.ipRanges.1.id'],
    [
      'scopeEntry',
      {
        scopePath: '/org/a/',
        ipRanges: [
          { id: 'a', isDefault: true },
          { id: 'b', isDefault: true },
        ],
      },
      'data.ipRanges',
    ],
    ['scopeEntry', { scopePath: '/', trustedAddresses: ['10.0.0.0/40'] }, 'data.trustedAddresses'],
    ['scopeEntry', { scopePath: '/org/a/', trustedAddresses: ['10.0.0.0/8'] }, 'data.trustedAddresses'],
    ['templateEntry', { usage: 'requestClosed', subject: '' }, 'data.subject'],
    ['templateEntry', { usage: 'requestClosed', subject: '${bad' }, 'data.subject'],
    [
      'templateEntry',
      { usage: 'issueRequest', body: richTextFromParagraphs('Hi ${request.nope}') },
      'data.body',
    ],
    ['taskTypeSettingsEntry', { notifyOtherWhenTriggered: ['not-mail'] }, 'data.notifyOtherWhenTriggered'],
    ['requestSettingsEntry', { requestNumberPrefix: '' }, 'data.requestNumberPrefix'],
    ['requestSettingsEntry', { requestNumberPrefix: 'AB' }, 'data.requestNumberPrefix'],
    [
      'requestSettingsEntry',
      { requestNumberPrefix: 'ABC', resultDiscardedRecipient: 'x' },
      'data.resultDiscardedRecipient',
    ],
    [
      'requestSettingsEntry',
      { requestNumberPrefix: 'ABC', customResultFileName: '${x.y}' },
      'data.customResultFileName',
    ],
    ['requestSettingsEntry', { requestNumberPrefix: 'ABC', sharedScopePath: '/a/' }, 'data.sharedScopePath'],
  ] as const)('%s %j is refused on %s', (type, data, field) =>
    expect(fieldsOf(type, data)).toHaveProperty(field),
  );

  it('keeps a subject only for the four usages', () => {
    const { data } = validateEntry({
      ...base,
      type: 'templateEntry',
      data: { usage: 'issueRequest', subject: 'x' },
    });
    expect(data).not.toHaveProperty('subject', 'x');
  });
  it('strips webhook credentials and holiday junk', () => {
    expect(
      validateEntry({ ...base, type: 'apiWebhookEntry', data: { url: 'https://u:p@h.example/x' } }).data,
    ).toEqual({
      url: 'https://h.example/x',
      publicKey: undefined,
    });
    expect(
      validateEntry({ ...base, type: 'publicHolidaysEntry', data: { dates: ['27-1-1', 'x', '2026-12-25'] } })
        .data,
    ).toEqual({
      dates: ['2026-12-25', '2027-01-01'],
    });
  });
  it('uppercases the prefix and makes links in rich text https or mailto only', () => {
    expect(
      (
        validateEntry({ ...base, type: 'requestSettingsEntry', data: { requestNumberPrefix: 'acm' } })
          .data as { requestNumberPrefix: string }
      ).requestNumberPrefix,
    ).toBe('ACM');
    const body = {
      type: 'doc',
      content: [
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'x', marks: [{ type: 'link', attrs: { href: 'http://a.example' } }] },
          ],
        },
      ],
    };
    const cleaned = validateEntry({
      ...base,
      type: 'templateEntry',
      data: { usage: 'issueRequest', body },
    }).data;
    expect(JSON.stringify(cleaned)).toContain('about:blank');
  });
  it.each(['10.0.0.0/8', '192.168.1.1', '::1', '2001:db8::/32', 'fe80::1:2:3:4'])('CIDR %s is fine', (v) =>
    expect(isCidr(v)).toBe(true),
  );
  it.each(['10.0.0.256', '10.0.0.0/40', 'abc', '1:2:3:4:5:6:7:8:9', '::1::2', '10.0.0.0/8/1'])(
    'CIDR %s is not',
    (v) => expect(isCidr(v)).toBe(false),
  );
});

function q(id: string, text: string, more: Partial<SmartFormQuestion> = {}): SmartFormQuestion {
  return {
    id,
    name: '',
    richText: richTextFromParagraphs(text),
    answerType: 'freeText',
    nestedForm: [],
    tableColumns: [],
    ...more,
  };
}
const itemType = (smartForm: SmartFormQuestion[], more = {}) => ({ smartForm, ...more });

describe('request item types', () => {
  it('names a question after the first non-empty line of its text', () => {
    expect(questionNameOf(richTextFromParagraphs('', '  First line ', 'second'))).toBe('First line');
    const { data } = validateEntry({
      ...base,
      type: 'requestItemTypeEntry',
      data: itemType([q('a', 'Hello?')]),
    });
    expect((data as { smartForm: SmartFormQuestion[] }).smartForm[0]?.name).toBe('Hello?');
  });
  it.each([
    ['a question without text', [q('a', '')], 'data.smartForm.0.richText'],
    ['a question without id', [q('', 'x')], 'data.smartForm.0.id'],
    ['twice the same id', [q('a', 'x'), q('a', 'y')], 'data.smartForm.1.id'],
    [
      'a top-level parent condition',
      [q('a', 'x', { condition: 'parentIsYes' })],
      'data.smartForm.0.condition',
    ],
    ['an option without its list', [q('a', 'x', { answerType: 'option' })], 'data.smartForm.0.optionRange'],
    [
      'precision 6',
      [q('a', 'x', { answerType: 'decimalNumber', decimalPrecision: 6 })],
      'data.smartForm.0.decimalPrecision',
    ],
    [
      'precision -1',
      [q('a', 'x', { answerType: 'decimalNumber', decimalPrecision: -1 })],
      'data.smartForm.0.decimalPrecision',
    ],
    ['a table without columns', [q('a', 'x', { answerType: 'table' })], 'data.smartForm.0.tableColumns'],
    [
      'a table with 5 columns',
      [
        q('a', 'x', {
          answerType: 'table',
          tableColumns: ['a', 'b', 'c', 'd', 'e'].map((id) => ({
            id,
            name: id,
            answerType: 'freeText' as const,
          })),
        }),
      ],
      'data.smartForm.0.tableColumns',
    ],
    [
      'a column without name',
      [q('a', 'x', { answerType: 'table', tableColumns: [{ id: 'a', name: '', answerType: 'freeText' }] })],
      'data.smartForm.0.tableColumns.0.name',
    ],
    [
      'a column with precision 9',
      [
        q('a', 'x', {
          answerType: 'table',
          tableColumns: [{ id: 'a', name: 'A', answerType: 'decimalNumber', decimalPrecision: 9 }],
        }),
      ],
      'data.smartForm.0.tableColumns.0.decimalPrecision',
    ],
    [
      'a table with nested questions',
      [
        q('a', 'x', {
          answerType: 'table',
          tableColumns: [{ id: 'a', name: 'A', answerType: 'freeText' }],
          nestedForm: [q('b', 'y')],
        }),
      ],
      'data.smartForm.0.nestedForm',
    ],
    [
      'a fourth level',
      [
        q('a', 'x', {
          nestedForm: [q('b', 'y', { nestedForm: [q('c', 'z', { nestedForm: [q('d', 'w')] })] })],
        }),
      ],
      'data.smartForm.0.nestedForm.0.nestedForm.0.nestedForm',
    ],
  ])('refuses %s', (_name, smartForm, field) =>
    expect(fieldsOf('requestItemTypeEntry', itemType(smartForm))).toHaveProperty(field),
  );

  it('accepts three levels, nested parent conditions and a table of 4 columns', () => {
    const columns = ['a', 'b', 'c', 'd'].map((id) => ({ id, name: id, answerType: 'freeText' as const }));
    const form = [
      q('a', 'x', {
        answerType: 'yesOrNo',
        nestedForm: [
          q('b', 'y', {
            condition: 'parentIsYes',
            nestedForm: [q('c', 'z', { answerType: 'table', tableColumns: columns })],
          }),
        ],
      }),
      q('d', 'w', { condition: 'anySiblingIsNo', answerType: 'decimalNumber', decimalPrecision: 0 }),
    ];
    expect(fieldsOf('requestItemTypeEntry', itemType(form))).toEqual({});
  });
  it.each([
    [{ fieldSets: [{ id: '', name: 'A' }] }, 'data.fieldSets.0.id'],
    [{ fieldSets: [{ id: 'a', name: '' }] }, 'data.fieldSets.0.name'],
    [
      { fieldSets: [{ id: 'a', name: 'A', fields: [{ id: 'f', name: '' }] }] },
      'data.fieldSets.0.fields.0.name',
    ],
    [{ submitterSuppliedFields: [{ id: 'Bad', name: 'x' }] }, 'data.submitterSuppliedFields.0.id'],
    [{ headerExtrasTemplate: richTextFromParagraphs('${nope}') }, 'data.headerExtrasTemplate'],
  ])('refuses static PDF data %j', (data, field) =>
    expect(fieldsOf('requestItemTypeEntry', data)).toHaveProperty(field),
  );
  it('starts new PDF fields as single line text of 100', () => {
    const { data } = validateEntry({
      ...base,
      type: 'requestItemTypeEntry',
      data: { fieldSets: [{ id: 'a', name: 'A', fields: [{ id: 'f', name: 'F' }] }] },
    });
    expect((data as { fieldSets: { fields: unknown[] }[] }).fieldSets[0]?.fields[0]).toMatchObject({
      type: 'singleLineText',
      maxLength: 100,
    });
  });
});

describe('field names in words', () => {
  it.each([
    ['data.fieldSets.0.id', 'Field set 1, id'],
    ['data.fieldSets.1.fields.2.maxLength', 'Field set 2, field 3, max length'],
    [
      'data.smartForm.0.nestedForm.1.tableColumns.0.decimalPrecision',
      'Smart form 1, nested form 2, table column 1, decimal precision',
    ],
    ['data.ipRanges.0.cidrs', 'Ip range 1, cidrs'],
    ['data.url', 'Url'],
    ['name', 'Name'],
    ['data.dates.3', 'Date 4'],
    ['data', 'The entry'],
    ['data.notifyOtherWhenCompleted', 'Notify other when completed'],
  ])('%s reads %s', (path, out) => expect(fieldPathInWords(path)).toBe(out));
  it('names every field of a refused save with its message', () => {
    expect(invalidFieldsMessage({ 'data.fieldSets.0.id': 'Required.' })).toBe(
      'Check this field. Field set 1, id: Required.',
    );
    expect(invalidFieldsMessage({ name: 'Required.', 'data.url': 'Enter an https URL.' })).toBe(
      'Check these fields. Name: Required. Url: Enter an https URL.',
    );
  });
  it('gives each field of a wrong shape its own error', () => {
    const { errors } = validateEntry({
      id: 'x',
      name: 'X',
      order: 0,
      type: 'taskTypeSettingsEntry',
      data: { taskType: 'followUp', dueTimeOfDay: 'PT30H0M' },
    });
    expect(errors).toEqual({ 'data.dueTimeOfDay': 'Enter a time of day, such as 17:00.' });
  });
});

describe('SCIM client entries', () => {
  const scim = (groupRoles: unknown) =>
    validateEntry({ id: 'entra', name: 'Entra', order: 0, type: 'scimClientEntry', data: { groupRoles } });

  it('cleans group mappings and defaults the subject to externalId', () => {
    const { data, errors } = scim([{ group: ' Handlers ', role: 'c:roles:handler', scopePath: 'org/acme' }]);
    expect(errors).toEqual({});
    expect(data).toEqual({
      subjectAttribute: 'externalId',
      groupRoles: [{ group: 'Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' }],
    });
  });

  it('names the field of each bad mapping', () => {
    const { errors } = scim([
      { group: '', role: 'c:roles:handler', scopePath: '/org/acme/' },
      { group: 'X', role: 'c:roles:king', scopePath: '' },
      { group: 'x', role: 'c:roles:handler', scopePath: '/org/a/' },
      { group: 'X', role: 'c:roles:handler', scopePath: '/org/a/' },
    ]);
    expect(errors).toEqual({
      'data.groupRoles.0.group': 'Required.',
      'data.groupRoles.1.role': 'Choose a role.',
      'data.groupRoles.1.scopePath': 'Required.',
      'data.groupRoles.3.group': 'This mapping is already in the list.',
    });
  });
});

describe('entryScopesOutside', () => {
  it("names SCIM group roles and scope settings outside the saving administrator's scopes", () => {
    const groupRoles = [
      { group: 'Staff', role: 'c:roles:handler', scopePath: '/org/acme/dept/sales/' },
      { group: 'All', role: 'c:roles:admin', scopePath: '/' },
      { group: 'Globex', role: 'c:roles:handler', scopePath: '/org/globex/' },
    ];
    expect(Object.keys(entryScopesOutside('scimClientEntry', { groupRoles }, ['/org/acme/']))).toEqual([
      'data.groupRoles.1.scopePath',
      'data.groupRoles.2.scopePath',
    ]);
    expect(entryScopesOutside('scimClientEntry', { groupRoles }, ['/'])).toEqual({});
    expect(entryScopesOutside('scopeEntry', { scopePath: '/org/globex/' }, ['/org/acme/'])).toEqual({
      'data.scopePath':
        '/org/globex/ lies outside your scopes: only an administrator of it may set its settings.',
    });
    expect(entryScopesOutside('scopeEntry', { scopePath: '/org/acme/' }, ['/org/acme/'])).toEqual({});
    expect(entryScopesOutside('templateEntry', {}, [])).toEqual({});
  });
});

describe('retention entry', () => {
  const base = { id: 'retention', name: 'Retention', order: 0, type: 'retentionEntry' as const };
  it('takes months from 1 to 1200, or nothing', () => {
    expect(
      validateEntry({ ...base, data: { deleteFilesAfterMonths: 84, deIdentifyAfterMonths: null } }),
    ).toEqual({
      data: { deleteFilesAfterMonths: 84, deIdentifyAfterMonths: null, keepAccessLogMonths: 72 },
      errors: {},
    });
    expect(validateEntry({ ...base, data: {} }).data).toEqual({
      deleteFilesAfterMonths: null,
      deIdentifyAfterMonths: null,
      keepAccessLogMonths: 72,
    });
    expect(
      validateEntry({ ...base, data: { deleteFilesAfterMonths: 0, deIdentifyAfterMonths: 1201 } }).errors,
    ).toEqual({
      'data.deleteFilesAfterMonths': 'Enter a number of months from 1 to 1200, or leave it empty.',
      'data.deIdentifyAfterMonths': 'Enter a number of months from 1 to 1200, or leave it empty.',
    });
    expect(
      validateEntry({ ...base, data: { deleteFilesAfterMonths: 1.5 } }).errors['data.deleteFilesAfterMonths'],
    ).toBeDefined();
  });

  it('keeps the access log six years unless told, at least a year, or all of it when empty', () => {
    const keep = (keepAccessLogMonths: number | null) =>
      validateEntry({ ...base, data: { keepAccessLogMonths } });
    expect(keep(null)).toMatchObject({ data: { keepAccessLogMonths: null }, errors: {} });
    expect(keep(12).errors).toEqual({});
    expect(keep(11).errors).toEqual({
      'data.keepAccessLogMonths': 'Enter a number of months from 12 to 1200, or leave it empty.',
    });
    expect(keep(1201).errors['data.keepAccessLogMonths']).toBeDefined();
  });
});
