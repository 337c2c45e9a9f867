import { describe, expect, it } from 'vitest';
import {
  checkTemplate,
  parseTemplate,
  renderRichTextTemplate,
  renderTemplate,
  richTextFromParagraphs,
} from '../src/index.js';

describe('placeholder syntax', () => {
  it.each([
    '${request.requestNumber}',
    '${request:requestNumber}',
    '${request.submittedAt date}',
    '${task.dueAt date-time}',
    '${invoice.amount number}',
    '${task.type enum workflowTaskType}',
    '${task.assignedTo name}',
    '${request.notes content}',
    '${result.url link}',
    '${result.url link "open the result"}',
    '${request.items list name}',
    '${request.items for-each item}${item.name}${end}',
    '${request.notes if-empty}none${end}',
    'no placeholders at all',
  ])('accepts %s', (text) => expect(checkTemplate(text)).toEqual([]));

  it.each([
    ['${Request.x}', 'is not a path'],
    ['${request..x}', 'is not a path'],
    ['${}', 'Empty placeholder'],
    ['${request.requestNumber', 'not closed'],
    ['${request.requestNumber shout}', 'Unknown operation "shout"'],
    ['${request.items for-each}', 'needs a name'],
    ['${task.type enum}', 'needs a name'],
    ['${result.url link open}', 'double quotes'],
    ['${request.submittedAt date long}', 'takes nothing'],
    ['${request.items for-each item}x', 'no matching ${end}'],
    ['x${end}', 'without a for-each'],
    ['${request.nope}', 'Unknown placeholder path "request.nope"'],
    ['${request.requestNumber.more}', 'Unknown placeholder path'],
    ['${request.requestNumber for-each x}${end}', 'is not a list'],
    ['${request.items list colour}', 'no field "colour"'],
    ['${item.name}', 'Unknown placeholder path "item.name"'],
  ])('refuses %s', (text, message) => expect(checkTemplate(text)[0]?.message).toContain(message));

  it('gives the position of each problem', () => {
    const [problem] = checkTemplate('Dear ${request.nope},');
    expect(problem).toMatchObject({ start: 5, end: 20, source: '${request.nope}' });
  });
  it('parses blocks into a tree', () => {
    const { parts } = parseTemplate('a${request.items for-each i}[${i.name}]${end}b');
    expect(parts.map((p) => p.kind)).toEqual(['text', 'block', 'text']);
  });
});

describe('placeholder rendering', () => {
  const data = {
    request: {
      requestNumber: 'ACM261122QXT42',
      submittedAt: '2026-11-22T01:00:00Z',
      dateOfBirth: '1980-03-04',
      items: [{ name: 'GP notes' }, { name: 'X-rays' }],
      notes: '',
      amount: 1234.5,
    },
    task: { type: 'followUp', assignedTo: 'harper' },
    result: { url: 'https://x.example/r/1' },
  };
  it.each([
    ['Request ${request.requestNumber}', 'Request ACM261122QXT42'],
    ['${request.submittedAt date}', '22 Nov 2026'],
    ['${request.dateOfBirth date}', '4 Mar 1980'],
    ['${request.amount number}', '1,234.5'],
    ['${task.type enum workflowTaskType}', 'Follow up'],
    ['${task.assignedTo name}', 'Harper Handler'],
    ['${result.url link "open"}', 'open (https://x.example/r/1)'],
    ['${request.items list name}', 'GP notes, X-rays'],
    ['${request.items for-each it}<${it.name}>${end}', '<GP notes><X-rays>'],
    ['${request.notes if-empty}no notes${end}', 'no notes'],
    ['${request.requestNumber if-empty}no number${end}', ''],
    ['${request.missing}!', '!'],
  ])('%s -> %s', (template, out) =>
    expect(
      renderTemplate(template, data, {
        enums: { workflowTaskType: { followUp: 'Follow up' } },
        names: { harper: 'Harper Handler' },
      }),
    ).toBe(out),
  );
  it('leaves a malformed template as written', () => expect(renderTemplate('${oops', data)).toBe('${oops'));
  it('renders the text of a rich text document', () => {
    const doc = renderRichTextTemplate(richTextFromParagraphs('No. ${request.requestNumber}'), data);
    expect(doc.content[0]?.content?.[0]?.text).toBe('No. ACM261122QXT42');
  });
});
