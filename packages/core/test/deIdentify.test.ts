import { describe, expect, it } from 'vitest';
import {
  DE_IDENTIFIED,
  dateOfBirthTexts,
  deIdentifiedFileName,
  deIdentifyApplicant,
  deIdentifyContent,
  identifyingTexts,
} from '../src/index.js';

describe('de-identification', () => {
  it('replaces what names the applicant and keeps country, tags and file references', () => {
    const out = deIdentifyApplicant({
      name: 'Jane Citizen',
      dateOfBirth: '1980-04-01',
      phone: '0400 000 000',
      email: 'jane@example.com',
      address: '1 Main St',
      country: 'AU',
      reference1: 'POL-123',
      reference1Type: 'policyNumber',
      notes: 'Called on Monday',
      tags: { priority: 'high' },
    });
    expect(out).toMatchObject({
      name: DE_IDENTIFIED,
      dateOfBirth: null,
      phone: null,
      email: null,
      address: null,
      country: 'AU',
      reference1: DE_IDENTIFIED,
      reference1Type: 'policyNumber',
      notes: null,
      tags: { priority: 'high' },
    });
  });

  it('replaces free text of the content and keeps numbers, dates and ids', () => {
    const out = deIdentifyContent({
      itemTypes: [
        {
          id: 'gpNotes',
          smartFormAnswers: {
            q1: 'Treated for a broken arm',
            q2: '12.5',
            q3: '2024-01-31',
            q4: 'optYes',
            q5: [{ c1: 'Dr Who', c2: '3' }],
          },
          excludedQuestions: [],
          submitterSuppliedFields: { f: 'Jane' },
          fieldSets: {},
          files: [],
        },
      ],
      additionalQuestions: [{ text: 'Any history of asthma?' }],
      additionalInstructions: 'Call Jane first',
      additionalFiles: [],
    });
    expect(out.itemTypes[0]?.smartFormAnswers).toEqual({
      q1: DE_IDENTIFIED,
      q2: '12.5',
      q3: '2024-01-31',
      q4: 'optYes',
      q5: [{ c1: DE_IDENTIFIED, c2: '3' }],
    });
    expect(out.itemTypes[0]?.submitterSuppliedFields).toEqual({ f: DE_IDENTIFIED });
    expect(out.additionalQuestions).toEqual([{ text: DE_IDENTIFIED }]);
    expect(out.additionalInstructions).toBe(DE_IDENTIFIED);
  });

  it('lists the texts other records may quote, longest first', () => {
    expect(identifyingTexts({ name: 'Jane Citizen', reference1: 'POL-123', tags: {} }, 'AC-1')).toEqual([
      'Jane Citizen',
      'POL-123',
      'AC-1',
    ]);
  });

  it('keeps only the extension of a file name', () => {
    expect(deIdentifiedFileName('Jo Bloggs records.PDF')).toBe('de-identified.PDF');
    expect(deIdentifiedFileName('no extension')).toBe('de-identified');
  });

  it('lists the date of birth in the forms letters and mail write it, and the texts given', () => {
    const texts = identifyingTexts({ name: 'Jo Bloggs', dateOfBirth: '1961-07-04', tags: {} }, null, [
      'Re: records',
      'x',
    ]);
    expect(texts).toEqual(
      expect.arrayContaining([
        '1961-07-04',
        '04/07/1961',
        '4/7/1961',
        '4.7.1961',
        '4 July 1961',
        '04 Jul 1961',
      ]),
    );
    expect(texts).toContain('Re: records');
    expect(texts).not.toContain('x');
    expect(dateOfBirthTexts('not a date')).toEqual([]);
  });
});
