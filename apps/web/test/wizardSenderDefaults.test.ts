import type { SenderData } from '@dossier/core';
import { describe, expect, it } from 'vitest';
import {
  applySenderData,
  emptyItemAnswer,
  newRecipientFromSearch,
} from '../src/features/wizard/senderDefaults';

const sender = (overrides: Partial<SenderData> = {}): SenderData => ({
  organization: '/org/acme/',
  submitters: [{ id: 'sam', name: 'Sam' }],
  applicant: {
    reference1IsRequired: true,
    reference1Type: 'policyNumber',
    preLoadedApplicantAuthority: { key: 'pre' },
  },
  recipient: { tags: [], country: 'AU' },
  requestItemCategories: [
    {
      name: 'Request items',
      itemTypes: [
        {
          id: 'gp',
          name: 'GP',
          isPreSelected: true,
          form: null,
          smartForm: [],
          submitterSuppliedFields: [],
          fieldSets: [],
        },
        {
          id: 'spec',
          name: 'Specialist',
          isPreSelected: false,
          form: null,
          smartForm: [],
          submitterSuppliedFields: [],
          fieldSets: [],
        },
      ],
    },
  ],
  ...overrides,
});

describe('the sender data arriving on the Sender step', () => {
  it('clears an on-behalf-of choice the organisation no longer offers and keeps one it does', () => {
    expect(
      applySenderData({ sender: { organization: '/org/acme/', submittedOnBehalfOf: 'gale' } }, sender())
        .sender,
    ).toMatchObject({ submittedOnBehalfOf: null });
    expect(
      applySenderData({ sender: { organization: '/org/acme/', submittedOnBehalfOf: 'sam' } }, sender())
        .sender,
    ).toMatchObject({ submittedOnBehalfOf: 'sam' });
  });

  it('pre-selects item types when none is chosen and drops those not offered', () => {
    expect(applySenderData({}, sender()).content?.itemTypes?.map((i) => i.id)).toEqual(['gp']);
    const chosen = { content: { itemTypes: [emptyItemAnswer('spec'), emptyItemAnswer('gone')] } };
    expect(applySenderData(chosen, sender()).content?.itemTypes?.map((i) => i.id)).toEqual(['spec']);
  });

  it('fills the applicant defaults only where nothing was entered', () => {
    expect(applySenderData({}, sender()).applicant).toMatchObject({
      reference1Type: 'policyNumber',
      authority: { key: 'pre' },
    });
    const typed = { applicant: { reference1Type: 'claimNumber', authority: { key: 'mine' } } };
    expect(applySenderData(typed, sender()).applicant).toMatchObject({
      reference1Type: 'claimNumber',
      authority: { key: 'mine' },
    });
  });
});

describe('a new recipient entered after a search', () => {
  it('takes the searched terms, and the email only when it is a valid address', () => {
    expect(
      newRecipientFromSearch(
        { name: ' Clinic ', phone: '02 9000 1111', address: '1 Main St', email: 'a@b.example' },
        'AU',
      ),
    ).toMatchObject({
      name: 'Clinic',
      phone: '02 9000 1111',
      streetAddress: '1 Main St',
      email: 'a@b.example',
      country: 'AU',
    });
    expect(newRecipientFromSearch({ name: 'Clinic', email: 'records@' }, 'AU').email).toBeNull();
  });
});
