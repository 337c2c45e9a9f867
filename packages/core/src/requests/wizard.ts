import type { FileRef } from '../configuration/entries.js';
import { normalizeCountry } from '../countries.js';
import { decimalPrecisionOf, parseDecimalInput } from '../inputRules.js';
import type { FieldErrors } from '../userForm.js';
import { isValidEmail, validateWebAddress } from '../validators.js';
import type { Applicant, DraftData } from './model.js';
import type { TagDefinition } from './views.js';

// The rules of the new-request wizard ("New-request wizard", section 4 "Draft wizard" and
// section 5): five steps in order, the required fields of each, which steps can be reached, and the
// Back / Next / Submit buttons. The browser uses them to enable buttons and mark fields; the server
// uses the same rules on POST /requests, so a request is never stored with a step incomplete.

export const WIZARD_STEPS = ['sender', 'applicant', 'recipient', 'content', 'submit'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];
export const LAST_STEP = WIZARD_STEPS.length - 1;

export type WizardButton = 'back' | 'next' | 'submit';

/** What the rules need to know besides the data: the sender's defaults and its item types. */
export interface WizardContext {
  /** From the sender organisation's request settings (applicantReference1Required). */
  reference1IsRequired: boolean;
  /** Limits of the item types on offer, by item type id; unknown ids are an error on submit. */
  itemTypes?: Record<string, WizardItemTypeLimits>;
}

export interface WizardItemTypeLimits {
  submitterSuppliedFields: { id: string; maxLength: number }[];
  fieldSets: { id: string; fields: { id: string; type: string; maxLength: number }[] }[];
  /** The smart form, whose decimal answers are checked with the decimal input's rule. */
  smartForm?: Pick<WizardQuestion, 'id' | 'answerType' | 'decimalPrecision' | 'nestedForm'>[];
}

export const REQUIRED_MESSAGE = 'This field is required.';
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function stepIndex(step: string | undefined): number {
  const index = WIZARD_STEPS.indexOf(step as WizardStep);
  return Math.max(index, 0);
}

const blank = (value: unknown) => typeof value !== 'string' || value.trim().length === 0;

/** A YYYY-MM-DD that is a real calendar date, not in the future. */
export function isValidDateOfBirth(value: string, today = new Date()): boolean {
  if (!DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) return false;
  return value <= today.toISOString().slice(0, 10) && value >= '1900-01-01';
}

/**
 * A date typed in the en-AU order (D/M/YYYY, also with '-' or '.') as YYYY-MM-DD; two-digit years
 * are shifted into 2000+, except for dates in the past (a date of birth), where
 * they mean the most recent such year: 85 is 1985, 20 is 2020. A YYYY-MM-DD is taken as it is.
 * Undefined when invalid.
 */
export function parseLocaleDate(
  text: string,
  options: { past?: boolean | undefined; today?: Date | undefined } = {},
): string | undefined {
  const thisYear = (options.today ?? new Date()).getUTCFullYear();
  const century = (yy: number) => (options.past && 2000 + yy > thisYear ? 1900 + yy : 2000 + yy);
  const t = text.trim();
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(t);
  const local = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{2}|\d{4})$/.exec(t);
  const [year, month, day] = iso
    ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
    : local
      ? [
          local[3]?.length === 2 ? century(Number(local[3])) : Number(local[3]),
          Number(local[2]),
          Number(local[1]),
        ]
      : [Number.NaN, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() !== year || date.getUTCDate() !== day)
    return undefined;
  return date.toISOString().slice(0, 10);
}

/** YYYY-MM-DD shown as DD/MM/YYYY. */
export function formatLocaleDate(value: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? '');
  return m ? `${m[3]}/${m[2]}/${m[1]}` : (value ?? '');
}

/** The key under which a field set field's value is kept in an item type's answer. */
export const fieldSetKey = (fieldSetId: string, fieldId: string) => `${fieldSetId}.${fieldId}`;

function senderErrors(data: DraftData): FieldErrors {
  return blank(data.sender?.organization) ? { 'sender.organization': REQUIRED_MESSAGE } : {};
}

function applicantErrors(data: DraftData, ctx: WizardContext): FieldErrors {
  const a = data.applicant ?? {};
  const errors: FieldErrors = {};
  if (blank(a.name)) errors['applicant.name'] = REQUIRED_MESSAGE;
  if (blank(a.dateOfBirth)) errors['applicant.dateOfBirth'] = REQUIRED_MESSAGE;
  else if (!isValidDateOfBirth(a.dateOfBirth as string))
    errors['applicant.dateOfBirth'] = 'Enter a valid date of birth.';
  if (blank(a.country)) errors['applicant.country'] = REQUIRED_MESSAGE;
  else {
    const country = normalizeCountry(a.country);
    if (!country.ok) errors['applicant.country'] = country.message;
  }
  if (!blank(a.email) && !isValidEmail(a.email as string))
    errors['applicant.email'] = 'Enter a valid email address.';
  if (!a.authority?.key) errors['applicant.authority'] = REQUIRED_MESSAGE;
  if (ctx.reference1IsRequired && blank(a.reference1)) errors['applicant.reference1'] = REQUIRED_MESSAGE;
  return errors;
}

function recipientErrors(data: DraftData): FieldErrors {
  const r = data.recipient ?? {};
  const errors: FieldErrors = {};
  // A new recipient needs only a name and a phone here: the directory's required tags are asked
  // when staff edit the entry the request adds to the directory.
  if (blank(r.name)) errors['recipient.name'] = REQUIRED_MESSAGE;
  if (blank(r.phone)) errors['recipient.phone'] = REQUIRED_MESSAGE;
  const country = normalizeCountry(r.country);
  if (!country.ok) errors['recipient.country'] = country.message;
  if (!blank(r.webSiteUrl)) {
    const url = validateWebAddress(r.webSiteUrl as string);
    if (!url.ok) errors['recipient.webSiteUrl'] = url.message;
  }
  return errors;
}

const tooLong = (max: number) => `At most ${max} characters.`;

function contentErrors(data: DraftData, ctx: WizardContext): FieldErrors {
  const content = data.content ?? {};
  const errors: FieldErrors = {};
  const itemTypes = content.itemTypes ?? [];
  if (itemTypes.length === 0) errors['content.itemTypes'] = 'Choose at least one item type.';
  for (const [i, answer] of itemTypes.entries()) {
    const base = `content.itemTypes.${i}`;
    if (!ctx.itemTypes) continue;
    const limits = ctx.itemTypes[answer.id];
    if (!limits) {
      errors[`${base}.id`] = 'This item type is not offered.';
      continue;
    }
    for (const field of limits.submitterSuppliedFields) {
      const value = answer.submitterSuppliedFields?.[field.id] ?? '';
      if (value.length > field.maxLength)
        errors[`${base}.submitterSuppliedFields.${field.id}`] = tooLong(field.maxLength);
    }
    for (const set of limits.fieldSets) {
      for (const field of set.fields) {
        if (field.type === 'files') continue;
        const key = fieldSetKey(set.id, field.id);
        const value = answer.fieldSets?.[key] ?? '';
        if (value.length > field.maxLength) errors[`${base}.fieldSets.${key}`] = tooLong(field.maxLength);
      }
    }
  }
  for (const [i, answer] of itemTypes.entries()) {
    const limits = ctx.itemTypes?.[answer.id];
    if (limits?.smartForm)
      Object.assign(errors, decimalAnswerErrors(limits.smartForm, answer, `content.itemTypes.${i}`));
  }
  for (const [i, question] of (content.additionalQuestions ?? []).entries()) {
    if (blank(question.text)) errors[`content.additionalQuestions.${i}.text`] = REQUIRED_MESSAGE;
  }
  return errors;
}

/**
 * A decimal answer of a smart form is what its input would commit (section 5): digits with at most
 * the question's precision (0 to 5, else 2) of decimals. The wizard's input never commits anything
 * else; the server re-checks it, as a submission need not come from the wizard.
 */
function decimalAnswerErrors(
  questions: NonNullable<WizardItemTypeLimits['smartForm']>,
  answer: { smartFormAnswers?: Record<string, unknown>; excludedQuestions?: string[] },
  base: string,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const q of questions) {
    if (answer.excludedQuestions?.includes(q.id)) continue;
    const value = answer.smartFormAnswers?.[q.id];
    const text = typeof value === 'number' ? String(value) : value;
    if (
      q.answerType === 'decimalNumber' &&
      value !== undefined &&
      value !== null &&
      text !== '' &&
      (typeof text !== 'string' || parseDecimalInput(text, { precision: q.decimalPrecision }) === undefined)
    )
      errors[`${base}.smartFormAnswers.${q.id}`] = decimalMessage(decimalPrecisionOf(q.decimalPrecision));
    Object.assign(errors, decimalAnswerErrors(q.nestedForm ?? [], answer, base));
  }
  return errors;
}

function decimalMessage(precision: number): string {
  if (precision === 0) return 'Enter a whole number (digits only).';
  return `Enter a number with at most ${precision} decimal${precision === 1 ? '' : 's'}.`;
}

/** The missing or invalid fields of one step, keyed by field path (`applicant.name`). */
export function stepErrors(step: WizardStep, data: DraftData, ctx: WizardContext): FieldErrors {
  switch (step) {
    case 'sender':
      return senderErrors(data);
    case 'applicant':
      return applicantErrors(data, ctx);
    case 'recipient':
      return recipientErrors(data);
    case 'content':
      return contentErrors(data, ctx);
    case 'submit':
      return {};
  }
}

/** Every step's errors together: what POST /requests answers with. */
export function wizardErrors(data: DraftData, ctx: WizardContext): FieldErrors {
  return Object.assign({}, ...WIZARD_STEPS.map((step) => stepErrors(step, data, ctx)));
}

export const isStepComplete = (step: WizardStep, data: DraftData, ctx: WizardContext) =>
  Object.keys(stepErrors(step, data, ctx)).length === 0;

/** The index of the first step whose required fields are not all filled (LAST_STEP when none). */
export function firstIncompleteStep(data: DraftData, ctx: WizardContext): number {
  const index = WIZARD_STEPS.findIndex((step) => !isStepComplete(step, data, ctx));
  return index < 0 ? LAST_STEP : index;
}

/**
 * The completed step after an edit: it falls back to the first step whose required fields are now
 * missing, so a later step cannot be reached past a hole.
 */
export function reconcileCompletedStep(completedStep: number, data: DraftData, ctx: WizardContext): number {
  const clamped = Math.max(0, Math.min(LAST_STEP, Math.trunc(completedStep) || 0));
  return Math.min(clamped, firstIncompleteStep(data, ctx));
}

/** Steps the stepper lets the user jump to: every step up to the completed one. */
export function reachableSteps(completedStep: number): WizardStep[] {
  return WIZARD_STEPS.slice(0, Math.max(0, Math.min(LAST_STEP, completedStep)) + 1);
}

export function isStepReachable(step: WizardStep, completedStep: number): boolean {
  return stepIndex(step) <= completedStep;
}

/** The buttons of a step: Sender has Next only, Submit has Back and Submit, the rest Back and Next. */
export function wizardButtons(step: WizardStep): WizardButton[] {
  if (step === 'sender') return ['next'];
  if (step === 'submit') return ['back', 'submit'];
  return ['back', 'next'];
}

/** Next is enabled when the step's required fields are filled. */
export function canGoNext(step: WizardStep, data: DraftData, ctx: WizardContext): boolean {
  return step !== 'submit' && isStepComplete(step, data, ctx);
}

/**
 * Moving forward from a complete step: the next step is reached, and the completed step advances to
 * it (never backwards). Answers undefined when the step is incomplete.
 */
export function goNext(
  step: WizardStep,
  completedStep: number,
  data: DraftData,
  ctx: WizardContext,
): { step: WizardStep; completedStep: number } | undefined {
  if (!canGoNext(step, data, ctx)) return undefined;
  const next = stepIndex(step) + 1;
  // Never past the end: canGoNext is false on the last step.
  const nextStep = WIZARD_STEPS[next];
  if (nextStep === undefined) return undefined;
  return {
    step: nextStep,
    completedStep: reconcileCompletedStep(Math.max(completedStep, next), data, ctx),
  };
}

export function goBack(step: WizardStep): WizardStep {
  return WIZARD_STEPS[Math.max(0, stepIndex(step) - 1)] ?? 'sender';
}

/** Submission is offered only on the Submit step, once every step is complete. */
export function canSubmit(completedStep: number, data: DraftData, ctx: WizardContext): boolean {
  return completedStep >= LAST_STEP && firstIncompleteStep(data, ctx) === LAST_STEP;
}

// The views and answers of the wizard's routes.

export interface WizardOrganization {
  scopePath: string;
  name: string;
}

export interface WizardQuestion {
  id: string;
  name: string;
  answerType: string;
  richText?: unknown;
  condition?: string | null;
  decimalPrecision?: number | undefined;
  /** The choices of an option question (the children of its option range). */
  options: { id: string; name: string }[];
  nestedForm: WizardQuestion[];
}

export interface WizardItemType {
  id: string;
  name: string;
  isPreSelected: boolean;
  form: FileRef | null;
  smartForm: WizardQuestion[];
  submitterSuppliedFields: { id: string; name: string; maxLength: number }[];
  fieldSets: {
    id: string;
    name: string;
    fields: { id: string; name: string; type: string; maxLength: number }[];
  }[];
}

/** GET /requests/new/sender/{organization}/data */
export interface SenderData {
  organization: string;
  /** Users who may submit for the organisation: the on-behalf-of choices. */
  submitters: { id: string; name: string }[];
  applicant: {
    reference1IsRequired: boolean;
    reference1Type: string | null;
    preLoadedApplicantAuthority: FileRef | null;
  };
  recipient: { tags: TagDefinition[]; country: string };
  requestItemCategories: { name: string; itemTypes: WizardItemType[] }[];
}

export function wizardContextOf(senderData: SenderData | null | undefined): WizardContext {
  if (!senderData) return { reference1IsRequired: false };
  const itemTypes: Record<string, WizardItemTypeLimits> = {};
  for (const category of senderData.requestItemCategories)
    for (const t of category.itemTypes) itemTypes[t.id] = t;
  return {
    reference1IsRequired: senderData.applicant.reference1IsRequired,
    itemTypes,
  };
}

export interface DraftSummary {
  draftId: string;
  completedStep: number;
  createdAt: string;
  updatedAt: string;
  organizationName: string | null;
  applicantName: string | null;
}

export interface OpenDraft {
  draftId: string;
  completedStep: number;
  createdAt: string | null;
  /** False for a new draft id the browser made that was not saved yet. */
  isSaved: boolean;
  data: DraftData;
}

/** A previous applicant of the organisation, found by GET /applicants/{organization}/search. */
export type ApplicantHit = Omit<Applicant, 'authority' | 'application' | 'tags'> & {
  lastRequestNumber: string;
};
