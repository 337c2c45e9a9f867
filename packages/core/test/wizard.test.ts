import { describe, expect, it } from 'vitest';
import type { DraftData, ItemTypeAnswer } from '../src/requests/model.js';
import {
  canGoNext,
  canSubmit,
  firstIncompleteStep,
  formatLocaleDate,
  goBack,
  goNext,
  isValidDateOfBirth,
  parseLocaleDate,
  reachableSteps,
  reconcileCompletedStep,
  stepErrors,
  type WizardContext,
  wizardButtons,
  wizardErrors,
} from '../src/requests/wizard.js';

const ctx: WizardContext = {
  reference1IsRequired: false,
  itemTypes: {
    gp: {
      submitterSuppliedFields: [{ id: 'practice', maxLength: 5 }],
      fieldSets: [{ id: 'fs', fields: [{ id: 'note', type: 'multiLineText', maxLength: 3 }] }],
    },
  },
};

const item = (id: string, values: Partial<ItemTypeAnswer> = {}): ItemTypeAnswer => ({
  id,
  smartFormAnswers: {},
  excludedQuestions: [],
  submitterSuppliedFields: {},
  fieldSets: {},
  fieldSetFiles: {},
  files: [],
  ...values,
});

const complete: DraftData = {
  sender: { organization: '/org/acme/' },
  applicant: {
    name: 'Jane Citizen',
    dateOfBirth: '1980-02-29',
    country: 'AU',
    authority: { key: 'k1', name: 'authority.pdf' },
  },
  recipient: { name: 'Northside Clinic', phone: '+61290001111' },
  content: { itemTypes: [item('gp')] },
};

describe('wizard required fields per step', () => {
  it('Sender needs an organization', () => {
    expect(stepErrors('sender', {}, ctx)).toEqual({ 'sender.organization': 'This field is required.' });
    expect(stepErrors('sender', complete, ctx)).toEqual({});
  });

  it('Applicant needs name, date of birth, country and authority', () => {
    expect(Object.keys(stepErrors('applicant', { applicant: {} }, ctx)).sort()).toEqual([
      'applicant.authority',
      'applicant.country',
      'applicant.dateOfBirth',
      'applicant.name',
    ]);
    expect(stepErrors('applicant', complete, ctx)).toEqual({});
  });

  it('Applicant needs reference1 only when the organisation requires it', () => {
    expect(stepErrors('applicant', complete, { ...ctx, reference1IsRequired: true })).toEqual({
      'applicant.reference1': 'This field is required.',
    });
    const withRef = { ...complete, applicant: { ...complete.applicant, reference1: 'POL-1' } };
    expect(stepErrors('applicant', withRef, { ...ctx, reference1IsRequired: true })).toEqual({});
  });

  it('rejects a date of birth that is not a real past date', () => {
    expect(isValidDateOfBirth('1980-02-29')).toBe(true);
    expect(isValidDateOfBirth('1981-02-29')).toBe(false);
    expect(isValidDateOfBirth('29/02/1980')).toBe(false);
    expect(isValidDateOfBirth('2999-01-01')).toBe(false);
  });

  it('reads dates in the locale order and shifts two-digit years into 2000+', () => {
    expect(parseLocaleDate('29/2/1980')).toBe('1980-02-29');
    expect(parseLocaleDate('1.3.24')).toBe('2024-03-01');
    expect(parseLocaleDate('1980-02-29')).toBe('1980-02-29');
    expect(parseLocaleDate('31/04/1980')).toBeUndefined();
    expect(parseLocaleDate('yesterday')).toBeUndefined();
    expect(formatLocaleDate('1980-02-29')).toBe('29/02/1980');
  });

  it('reads a two-digit year of a date of birth as the most recent such year', () => {
    const today = new Date('2026-11-25T00:00:00Z');
    expect(parseLocaleDate('3/4/85', { past: true, today })).toBe('1985-04-03');
    expect(parseLocaleDate('3/4/26', { past: true, today })).toBe('2026-04-03');
    expect(parseLocaleDate('3/4/27', { past: true, today })).toBe('1927-04-03');
    expect(parseLocaleDate('3/4/85', { today })).toBe('2085-04-03');
  });

  it('checks an applicant email address when one is given', () => {
    const applicant = { ...complete.applicant, email: 'not-an-email' };
    expect(stepErrors('applicant', { applicant }, ctx)).toEqual({
      'applicant.email': 'Enter a valid email address.',
    });
    expect(stepErrors('applicant', { applicant: { ...applicant, email: 'jane@example.org' } }, ctx)).toEqual(
      {},
    );
  });

  it('Recipient needs name and phone', () => {
    expect(Object.keys(stepErrors('recipient', { recipient: { name: ' ' } }, ctx)).sort()).toEqual([
      'recipient.name',
      'recipient.phone',
    ]);
  });

  it('Content needs item types, text for every additional question, and fields within maxLength', () => {
    expect(stepErrors('content', { content: {} }, ctx)).toHaveProperty('content.itemTypes');
    const content: DraftData = {
      content: {
        itemTypes: [
          item('gp', { submitterSuppliedFields: { practice: 'too long' }, fieldSets: { 'fs.note': 'abcd' } }),
          item('unknown'),
        ],
        additionalQuestions: [{ text: 'Any imaging?' }, { text: '' }],
      },
    };
    expect(stepErrors('content', content, ctx)).toEqual({
      'content.itemTypes.0.submitterSuppliedFields.practice': 'At most 5 characters.',
      'content.itemTypes.0.fieldSets.fs.note': 'At most 3 characters.',
      'content.itemTypes.1.id': 'This item type is not offered.',
      'content.additionalQuestions.1.text': 'This field is required.',
    });
  });

  it('Submit needs nothing, and all errors together name every field', () => {
    expect(stepErrors('submit', {}, ctx)).toEqual({});
    expect(Object.keys(wizardErrors({}, ctx))).toContain('recipient.phone');
    expect(wizardErrors(complete, ctx)).toEqual({});
  });
});

describe('wizard navigation', () => {
  it('has Next only on Sender, Back and Submit on Submit, Back and Next elsewhere', () => {
    expect(wizardButtons('sender')).toEqual(['next']);
    expect(wizardButtons('applicant')).toEqual(['back', 'next']);
    expect(wizardButtons('content')).toEqual(['back', 'next']);
    expect(wizardButtons('submit')).toEqual(['back', 'submit']);
    expect(goBack('applicant')).toBe('sender');
    expect(goBack('sender')).toBe('sender');
  });

  it('goes forward only when the step is complete and advances completedStep', () => {
    expect(canGoNext('sender', {}, ctx)).toBe(false);
    expect(goNext('sender', 0, {}, ctx)).toBeUndefined();
    expect(goNext('sender', 0, complete, ctx)).toEqual({ step: 'applicant', completedStep: 1 });
    // Going forward from an earlier step never lowers how far the user got.
    expect(goNext('sender', 3, complete, ctx)).toEqual({ step: 'applicant', completedStep: 3 });
  });

  it('falls back when an earlier step loses a required field', () => {
    const noName = { ...complete, applicant: { ...complete.applicant, name: '' } };
    expect(firstIncompleteStep(noName, ctx)).toBe(1);
    expect(reconcileCompletedStep(4, noName, ctx)).toBe(1);
    expect(reconcileCompletedStep(4, complete, ctx)).toBe(4);
    expect(reconcileCompletedStep(99, complete, ctx)).toBe(4);
  });

  it('reaches earlier steps up to the completed step', () => {
    expect(reachableSteps(0)).toEqual(['sender']);
    expect(reachableSteps(2)).toEqual(['sender', 'applicant', 'recipient']);
  });

  it('offers submission only when every step is complete and Submit was reached', () => {
    expect(canSubmit(4, complete, ctx)).toBe(true);
    expect(canSubmit(3, complete, ctx)).toBe(false);
    expect(canSubmit(4, { ...complete, recipient: {} }, ctx)).toBe(false);
  });
});
