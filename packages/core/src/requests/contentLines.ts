import type { RequestItemTypeEntryData, SmartFormQuestion } from '../configuration/entries.js';
import type { ContentDraft, RequestContent, RequestFile } from './model.js';
import { fieldSetKey, formatLocaleDate, type WizardItemType, type WizardQuestion } from './wizard.js';

// The content of a request as the people who read it see it: the wizard's review step, the request
// page's Content part and the letter sent to the recipient all show the same lines, so what the
// submitter checked is what the recipient is asked. Answers are stored by question id and option
// id; only the item type's smart form knows the question texts and the option names.

/** What is needed of an item type to show answers to it (a WizardItemType has it all). */
export type ContentItemType = Pick<
  WizardItemType,
  'id' | 'name' | 'smartForm' | 'submitterSuppliedFields' | 'fieldSets'
>;

/** The answers shown: a request's content, or a draft's (the wizard's review step), parts missing. */
export type ContentAnswersSource = Pick<
  ContentDraft,
  'itemTypes' | 'additionalQuestions' | 'additionalFiles'
>;

export type ContentLineKind =
  | 'itemType'
  | 'question'
  | 'field'
  | 'fieldSet'
  | 'files'
  | 'additionalQuestions'
  | 'additionalQuestion';

export interface ContentLine {
  kind: ContentLineKind;
  /** Nesting depth, as the smart form PDF indents nested questions. */
  level: number;
  /** `1.2` for smart form questions and additional questions, as the smart form PDF numbers them. */
  number?: string;
  label: string;
  /** The answer as text; empty for headings and for questions not answered. */
  answer: string;
  files?: RequestFile[];
}

/** Texts in the reader's language; the server's letter uses the defaults. */
export interface ContentLineLabels {
  yes: string;
  no: string;
  files: string;
  additionalQuestions: string;
}

export const DEFAULT_CONTENT_LINE_LABELS: ContentLineLabels = {
  yes: 'Yes',
  no: 'No',
  files: 'Files',
  additionalQuestions: 'Additional questions',
};

/**
 * Whether a nested question is asked, given the answer to its parent and to its siblings. A
 * question hidden in the wizard is not shown as asked anywhere else either.
 */
export function smartFormConditionHolds(
  question: Pick<WizardQuestion, 'id' | 'condition'>,
  parentAnswer: unknown,
  siblings: Pick<WizardQuestion, 'id'>[],
  answers: Record<string, unknown>,
): boolean {
  switch (question.condition) {
    case 'parentIsYes':
      return parentAnswer === 'yes';
    case 'parentIsNo':
      return parentAnswer === 'no';
    case 'anySiblingIsYes':
      return siblings.some((s) => s.id !== question.id && answers[s.id] === 'yes');
    case 'anySiblingIsNo':
      return siblings.some((s) => s.id !== question.id && answers[s.id] === 'no');
    default:
      return true;
  }
}

/** The first paragraph of a question's rich text: the question as the smart form PDF prints it. */
export function questionText(question: Pick<WizardQuestion, 'name' | 'richText'>): string {
  const texts: string[] = [];
  const visit = (node: unknown): boolean => {
    if (!node || typeof node !== 'object') return false;
    const n = node as { type?: string; text?: string; content?: unknown[] };
    if (n.type === 'paragraph' || n.type === 'heading') {
      const text = (n.content ?? []).map((c) => (c as { text?: string }).text ?? '').join('');
      if (text.trim()) texts.push(text.trim());
      return texts.length > 0;
    }
    return (n.content ?? []).some(visit);
  };
  visit(question.richText);
  return texts[0] ?? question.name;
}

function answerText(question: WizardQuestion, value: unknown, labels: ContentLineLabels): string {
  if (value === undefined || value === null) return '';
  switch (question.answerType) {
    case 'yesOrNo':
      return value === 'yes' ? labels.yes : value === 'no' ? labels.no : String(value);
    case 'option':
      return question.options.find((o) => o.id === value)?.name ?? String(value);
    case 'yearMonthAndDate':
      return formatLocaleDate(String(value));
  }
  if (typeof value === 'string') return value;
  if (Array.isArray(value))
    return value
      .map((row) =>
        row && typeof row === 'object'
          ? Object.values(row as Record<string, unknown>)
              .map((v) => String(v ?? ''))
              .join(', ')
          : String(row),
      )
      .join('\n');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function questionLines(
  questions: WizardQuestion[],
  answer: RequestContent['itemTypes'][number],
  prefix: string,
  level: number,
  parentAnswer: unknown,
  labels: ContentLineLabels,
): ContentLine[] {
  const answers = answer.smartFormAnswers ?? {};
  const excluded = answer.excludedQuestions ?? [];
  const asked = questions.filter(
    (q) => !excluded.includes(q.id) && smartFormConditionHolds(q, parentAnswer, questions, answers),
  );
  return asked.flatMap((q, i) => {
    const number = `${prefix}${i + 1}`;
    return [
      {
        kind: 'question',
        level,
        number,
        label: questionText(q),
        answer: answerText(q, answers[q.id], labels),
      },
      ...questionLines(q.nestedForm, answer, `${number}.`, level + 1, answers[q.id] ?? null, labels),
    ] satisfies ContentLine[];
  });
}

const known = (ids: string[]) => new Set(ids);

function itemTypeLines(
  answer: RequestContent['itemTypes'][number],
  type: ContentItemType | undefined,
  labels: ContentLineLabels,
): ContentLine[] {
  const lines: ContentLine[] = [
    { kind: 'itemType', level: 0, label: type?.name || answer.name || answer.id, answer: '' },
  ];
  const form = type?.smartForm ?? [];
  lines.push(...questionLines(form, answer, '', 0, undefined, labels));
  // Answers to questions the form no longer has are still what was asked: shown by id, not lost.
  const ids = known(allQuestionIds(form));
  const excluded = answer.excludedQuestions ?? [];
  for (const [id, value] of Object.entries(answer.smartFormAnswers ?? {})) {
    if (ids.has(id) || excluded.includes(id) || value === '' || value === null || value === undefined)
      continue;
    lines.push({ kind: 'question', level: 0, label: id, answer: typeof value === 'string' ? value : '' });
  }

  const supplied = answer.submitterSuppliedFields ?? {};
  const fields = type?.submitterSuppliedFields ?? [];
  for (const field of fields) {
    const answer = supplied[field.id];
    if (answer) lines.push({ kind: 'field', level: 0, label: field.name, answer });
  }
  const fieldIds = known(fields.map((f) => f.id));
  for (const [id, value] of Object.entries(supplied))
    if (!fieldIds.has(id) && value) lines.push({ kind: 'field', level: 0, label: id, answer: value });

  const values = answer.fieldSets ?? {};
  const setFiles = answer.fieldSetFiles ?? {};
  const setKeys = new Set<string>();
  for (const set of type?.fieldSets ?? []) {
    const setLines: ContentLine[] = [];
    for (const field of set.fields) {
      const key = fieldSetKey(set.id, field.id);
      setKeys.add(key);
      if (field.type === 'files') {
        const files = setFiles[key] ?? [];
        if (files.length > 0) setLines.push(filesLine(field.name, files, 1));
      } else if (values[key])
        setLines.push({ kind: 'field', level: 1, label: field.name, answer: values[key] });
    }
    if (setLines.length > 0)
      lines.push({ kind: 'fieldSet', level: 0, label: set.name, answer: '' }, ...setLines);
  }
  for (const [key, value] of Object.entries(values))
    if (!setKeys.has(key) && value) lines.push({ kind: 'field', level: 0, label: key, answer: value });
  for (const [key, files] of Object.entries(setFiles))
    if (!setKeys.has(key) && files.length > 0) lines.push(filesLine(key, files, 0));

  if ((answer.files ?? []).length > 0) lines.push(filesLine(labels.files, answer.files, 0));
  return lines;
}

function filesLine(label: string, files: RequestFile[], level: number): ContentLine {
  return { kind: 'files', level, label, answer: files.map((f) => f.name ?? f.key).join(', '), files };
}

function allQuestionIds(questions: WizardQuestion[]): string[] {
  return questions.flatMap((q) => [q.id, ...allQuestionIds(q.nestedForm)]);
}

/**
 * The content of a request (or of a draft) as lines to show or print, in the order and numbering of
 * the smart form PDF: per item type its heading, the questions asked with their answers (option
 * names, Yes/No and dates as text; excluded questions and those whose condition does not hold left
 * out), the submitter-supplied fields, the field sets and the files; then the additional questions
 * and the additional files. Item types not found in `itemTypes` still show their stored answers.
 */
export function requestContentLines(
  content: ContentAnswersSource,
  itemTypes: ContentItemType[],
  labels: ContentLineLabels = DEFAULT_CONTENT_LINE_LABELS,
): ContentLine[] {
  const lines = (content.itemTypes ?? []).flatMap((answer) =>
    itemTypeLines(
      answer,
      itemTypes.find((t) => t.id === answer.id),
      labels,
    ),
  );
  const questions = (content.additionalQuestions ?? []).filter((q) => q.text.trim());
  const files = content.additionalFiles ?? [];
  if (questions.length > 0 || files.length > 0) {
    lines.push({ kind: 'additionalQuestions', level: 0, label: labels.additionalQuestions, answer: '' });
    for (const [i, q] of questions.entries())
      lines.push({
        kind: 'additionalQuestion',
        level: 0,
        number: `${i + 1}`,
        label: q.text.trim(),
        answer: '',
      });
    if (files.length > 0) lines.push(filesLine(labels.files, files, 0));
  }
  return lines;
}

function toContentQuestion(
  question: SmartFormQuestion,
  options: { id: string; name: string; parentId: string }[],
): WizardQuestion {
  return {
    id: question.id,
    name: question.name,
    answerType: question.answerType,
    richText: question.richText,
    condition: question.condition ?? null,
    decimalPrecision: question.decimalPrecision,
    options: question.optionRange
      ? options.filter((o) => o.parentId === question.optionRange).map((o) => ({ id: o.id, name: o.name }))
      : [],
    nestedForm: question.nestedForm.map((q) => toContentQuestion(q, options)),
  };
}

/**
 * A request item type configuration entry as the wizard and the content lines need it: option
 * ranges resolved to their choices (the smart form option entries below them).
 */
export function toWizardItemType(
  entry: { id: string; name: string; data: RequestItemTypeEntryData },
  options: { id: string; name: string; parentId: string }[],
  isPreSelected = false,
): WizardItemType {
  return {
    id: entry.id,
    name: entry.name,
    isPreSelected,
    form: entry.data.form,
    smartForm: entry.data.smartForm.map((q) => toContentQuestion(q, options)),
    submitterSuppliedFields: entry.data.submitterSuppliedFields,
    fieldSets: entry.data.fieldSets.map((set) => ({
      id: set.id,
      name: set.name,
      fields: set.fields.map((f) => ({ id: f.id, name: f.name, type: f.type, maxLength: f.maxLength })),
    })),
  };
}
