import type { Applicant, RequestContent } from './model.js';

// De-identification of a request's applicant (issue 36): what names or describes the person is
// replaced, what reports count and sum (numbers, dates, amounts, tags, ids) stays, so a report gives
// the same totals before and after. Used by retention and by an erasure on request.

export const DE_IDENTIFIED = '(de-identified)';

const replaced = (value: string | null | undefined) => (value?.trim() ? DE_IDENTIFIED : (value ?? null));

export function deIdentifyApplicant(applicant: Applicant): Applicant {
  return {
    name: DE_IDENTIFIED,
    dateOfBirth: null,
    phone: null,
    email: null,
    address: null,
    country: applicant.country ?? null,
    authority: applicant.authority ?? null,
    application: applicant.application ?? null,
    reference1: replaced(applicant.reference1),
    reference1Type: applicant.reference1Type ?? null,
    reference2: replaced(applicant.reference2),
    reference2Type: applicant.reference2Type ?? null,
    notes: null,
    tags: applicant.tags ?? {},
  };
}

// Kept: numbers (with a decimal point or comma), ISO dates and times, yes/no, and identifiers such
// as an option's id (lowercase first, then letters and digits). A single lowercase word of free text
// looks like an identifier and is kept too: the price of not reading the form's answer types.
const KEPT = /^(-?\d+([.,]\d+)?|\d{4}-\d{2}-\d{2}(T[\d:.]+Z?)?|yes|no|[a-z][A-Za-z0-9]*)$/;

/** Free text replaced, numbers, dates and ids kept, at any depth (table answers, nested forms). */
export function deIdentifyValue(value: unknown): unknown {
  if (typeof value === 'string')
    return value.trim() === '' || KEPT.test(value.trim()) ? value : DE_IDENTIFIED;
  if (Array.isArray(value)) return value.map(deIdentifyValue);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deIdentifyValue(v)]));
  return value;
}

const scrubRecord = <T extends Record<string, unknown>>(record: T | undefined): T =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, deIdentifyValue(v)])) as T;

export function deIdentifyContent(content: RequestContent): RequestContent {
  return {
    ...content,
    itemTypes: (content.itemTypes ?? []).map((item) => ({
      ...item,
      smartFormAnswers: scrubRecord(item.smartFormAnswers),
      submitterSuppliedFields: scrubRecord(item.submitterSuppliedFields),
      fieldSets: scrubRecord(item.fieldSets),
    })),
    additionalQuestions: (content.additionalQuestions ?? []).map((q) => ({ text: replaced(q.text) ?? '' })),
    additionalInstructions: replaced(content.additionalInstructions),
    additionalInstructionsToHandler: replaced(content.additionalInstructionsToHandler),
  };
}

/** A file's name without what may name the person; the extension stays (as the files table's). */
export function deIdentifiedFileName(name: string): string {
  return `de-identified${/\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? ''}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * The ways letters, mail and notes write a date of birth (ISO, day/month/year with and without
 * leading zeros, with dots or dashes, the month's name in full and short): a quote of it is the
 * person's, whatever the form.
 */
export function dateOfBirthTexts(iso: string | null | undefined): string[] {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso ?? '');
  if (!m) return [];
  const [, y, mm, dd] = m as unknown as [string, string, string, string];
  const d = String(Number(dd));
  const mo = String(Number(mm));
  const month = MONTHS[Number(mm) - 1] ?? '';
  return [
    `${y}-${mm}-${dd}`,
    ...['/', '.', '-'].flatMap((sep) => [`${dd}${sep}${mm}${sep}${y}`, `${d}${sep}${mo}${sep}${y}`]),
    `${d} ${month} ${y}`,
    `${dd} ${month} ${y}`,
    `${d} ${month.slice(0, 3)} ${y}`,
    `${dd} ${month.slice(0, 3)} ${y}`,
  ];
}

/**
 * The texts of the applicant that other records (history, notes, mail) may quote, longest first:
 * name, references, contacts, the date of birth in its usual forms, and any `more` (the subjects
 * and senders of mail received for the request, the names of its files).
 */
export function identifyingTexts(
  applicant: Applicant,
  referenceNumber: string | null,
  more: string[] = [],
): string[] {
  const texts = [
    applicant.name,
    applicant.reference1,
    applicant.reference2,
    applicant.email,
    applicant.phone,
    applicant.address,
    referenceNumber,
    ...dateOfBirthTexts(applicant.dateOfBirth),
    ...more,
  ];
  return [
    ...new Set(texts.map((t) => t?.trim() ?? '').filter((t) => t.length >= 3 && t !== DE_IDENTIFIED)),
  ].sort((a, b) => b.length - a.length);
}
