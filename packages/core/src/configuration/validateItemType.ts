import { isIdentifier } from '../inputRules.js';
import { richTextTexts } from '../placeholders.js';
import type { RequestItemTypeEntryData, SmartFormQuestion, TableColumn } from './entries.js';
import type { EntryFieldErrors } from './entryRules.js';
import * as entryRules from './entryRules.js';
import {
  MAX_DECIMAL_PRECISION,
  MAX_SMART_FORM_LEVEL,
  MAX_TABLE_COLUMNS,
  MIN_DECIMAL_PRECISION,
  TOP_LEVEL_CONDITIONS,
} from './enums.js';

// The rules of request item types: smart form questions nested to level 2, table questions with at
// most 4 columns, decimal precision 0 to 5, static PDF field sets.

const ID_RULE = 'Start with a lowercase letter, then letters and digits.';

/** The name of a question: the first non-empty line of its text. */
export function questionNameOf(richText: unknown): string {
  for (const text of richTextTexts(richText)) {
    const line = text.split('\n').find((l) => l.trim());
    if (line) return line.trim().slice(0, 200);
  }
  return '';
}

function checkIds(items: { id: string }[], path: string, errors: EntryFieldErrors): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (!item.id) errors[`${path}.${i}.id`] = entryRules.REQUIRED;
    else if (!isIdentifier(item.id)) errors[`${path}.${i}.id`] = ID_RULE;
    else if (seen.has(item.id)) errors[`${path}.${i}.id`] = 'This id is used twice.';
    seen.add(item.id);
  });
}

function checkPrecision(value: number | undefined, path: string, errors: EntryFieldErrors): number {
  const precision = value ?? 2;
  if (
    !Number.isInteger(precision) ||
    precision < MIN_DECIMAL_PRECISION ||
    precision > MAX_DECIMAL_PRECISION
  ) {
    errors[path] = `Between ${MIN_DECIMAL_PRECISION} and ${MAX_DECIMAL_PRECISION}.`;
  }
  return precision;
}

function cleanColumns(columns: TableColumn[], path: string, errors: EntryFieldErrors): TableColumn[] {
  if (columns.length === 0) errors[path] = 'A table needs at least one column.';
  if (columns.length > MAX_TABLE_COLUMNS) errors[path] = `A table has at most ${MAX_TABLE_COLUMNS} columns.`;
  checkIds(columns, path, errors);
  return columns.map((column, i) => {
    const name = column.name.trim();
    if (!name) errors[`${path}.${i}.name`] = entryRules.REQUIRED;
    const out: TableColumn = { ...column, name };
    if (column.answerType === 'decimalNumber')
      out.decimalPrecision = checkPrecision(column.decimalPrecision, `${path}.${i}.decimalPrecision`, errors);
    else delete out.decimalPrecision;
    return out;
  });
}

function cleanQuestions(
  questions: SmartFormQuestion[],
  level: number,
  path: string,
  errors: EntryFieldErrors,
): SmartFormQuestion[] {
  checkIds(questions, path, errors);
  return questions.map((question, i) => {
    const at = `${path}.${i}`;
    const richText = entryRules.sanitizeTemplateRichText(question.richText);
    const name = questionNameOf(richText);
    if (!name) errors[`${at}.richText`] = 'Write the question.';
    const out: SmartFormQuestion = { ...question, richText, name, nestedForm: [], tableColumns: [] };
    if (question.condition && level === 0 && !TOP_LEVEL_CONDITIONS.includes(question.condition)) {
      errors[`${at}.condition`] = 'A top-level question can only depend on its siblings.';
    }
    if (question.answerType === 'decimalNumber')
      out.decimalPrecision = checkPrecision(question.decimalPrecision, `${at}.decimalPrecision`, errors);
    else delete out.decimalPrecision;
    if (question.answerType === 'option' && !question.optionRange)
      errors[`${at}.optionRange`] = 'Choose the list of options.';
    if (question.answerType !== 'option') delete out.optionRange;
    if (question.answerType === 'table') {
      delete out.foreignId;
      out.tableColumns = cleanColumns(question.tableColumns, `${at}.tableColumns`, errors);
      if (question.nestedForm.length > 0)
        errors[`${at}.nestedForm`] = 'A table question holds columns, not questions.';
    } else if (question.nestedForm.length > 0) {
      if (level >= MAX_SMART_FORM_LEVEL)
        errors[`${at}.nestedForm`] = `Questions nest at most ${MAX_SMART_FORM_LEVEL} levels deep.`;
      out.nestedForm = cleanQuestions(question.nestedForm, level + 1, `${at}.nestedForm`, errors);
    }
    return out;
  });
}

export function validateRequestItemType(
  data: RequestItemTypeEntryData,
  errors: EntryFieldErrors,
): RequestItemTypeEntryData {
  const smartForm = cleanQuestions(data.smartForm, 0, 'data.smartForm', errors);
  checkIds(data.fieldSets, 'data.fieldSets', errors);
  const fieldSets = data.fieldSets.map((set, i) => {
    const at = `data.fieldSets.${i}`;
    if (!set.name.trim()) errors[`${at}.name`] = entryRules.REQUIRED;
    checkIds(set.fields, `${at}.fields`, errors);
    return {
      ...set,
      name: set.name.trim(),
      fields: set.fields.map((field, j) => {
        if (!field.name.trim()) errors[`${at}.fields.${j}.name`] = entryRules.REQUIRED;
        return {
          ...field,
          name: field.name.trim(),
          autoFillFieldPaths: field.autoFillFieldPaths.map((p) => p.trim()).filter(Boolean),
        };
      }),
    };
  });
  checkIds(data.submitterSuppliedFields, 'data.submitterSuppliedFields', errors);
  data.submitterSuppliedFields.forEach((field, i) => {
    if (!field.name.trim()) errors[`data.submitterSuppliedFields.${i}.name`] = entryRules.REQUIRED;
  });
  const headerExtrasTemplate = entryRules.sanitizeTemplateRichText(data.headerExtrasTemplate);
  const problem = entryRules.templateProblem(richTextTexts(headerExtrasTemplate));
  if (problem) errors['data.headerExtrasTemplate'] = problem;
  return { ...data, smartForm, fieldSets, headerExtrasTemplate, foreignId: data.foreignId.trim() };
}
