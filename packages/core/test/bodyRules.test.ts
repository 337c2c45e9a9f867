import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  createPayeeRoute,
  fieldErrorsOf,
  payeeBodySchema,
  RECIPIENT_TAGS,
  recipientBodySchema,
  updateRecipientRoute,
  validatePayee,
  withKnownTags,
} from '../src/index.js';

// The admin edit pages check their fields with the route contract's body schema, the one the
// server validates the body with: each field rule exists once (the shape in zod, the rest in
// validatePayee/validateRecipient), and the schema says both.

const errorsOf = (schema: z.ZodType | undefined, value: unknown) =>
  fieldErrorsOf(schema?.safeParse(value).error?.issues ?? []);

describe('the payee body', () => {
  it('refuses what validatePayee refuses, with its messages at its fields', () => {
    const form = {
      name: ' ',
      currency: 'XYZ',
      email: 'nope',
      foreignReference: { label: '', url: 'ftp://x' },
    };
    expect(errorsOf(payeeBodySchema, form)).toEqual(validatePayee(form));
    expect(Object.keys(errorsOf(payeeBodySchema, form)).sort()).toEqual([
      'currency',
      'email',
      'foreignReference.url',
      'name',
    ]);
  });

  it('adds the shape: a name too long is refused at its field', () => {
    const errors = errorsOf(payeeBodySchema, { name: 'x'.repeat(301), currency: 'AUD' });
    expect(Object.keys(errors)).toEqual(['name']);
  });

  it('is the body of the contract and takes a valid payee', () => {
    expect(createPayeeRoute.body).toBe(payeeBodySchema);
    expect(errorsOf(payeeBodySchema, { name: 'Acme Pty Ltd', currency: 'AUD' })).toEqual({});
  });
});

describe('the recipient body', () => {
  const valid = {
    name: 'Sydney Hospital',
    phone: '02 9876 5432',
    tags: withKnownTags({ kind: { value: 'hospital' } }),
  };

  it('checks the tags against the known definitions, not those the form sent', () => {
    // A form that left the required tag out is still told it is required.
    expect(errorsOf(recipientBodySchema, { name: '', phone: '', tags: {} })).toEqual({
      name: 'Name is required.',
      phone: 'Phone is required.',
      'tags.kind': 'Kind is required.',
    });
    const forged = { id: 'kind', name: 'Kind', values: ['anything'], isRequired: false, value: 'anything' };
    expect(errorsOf(recipientBodySchema, { ...valid, tags: { kind: forged } })).toEqual({
      'tags.kind': 'Choose one of the values.',
    });
  });

  it('names a contact field by its index', () => {
    const contacts = [{ name: 'Dr Roe', email: 'not-an-address' }];
    expect(errorsOf(updateRecipientRoute.body, { ...valid, contacts })).toEqual({
      'contacts.0.email': 'Enter a valid email address.',
    });
  });

  it('reads tag values trimmed, an empty one as none', () => {
    const tags = withKnownTags({ kind: { value: ' doctor ' }, region: { value: '  ' } });
    expect(tags.kind?.value).toBe('doctor');
    expect(tags.region?.value).toBeNull();
    expect(Object.keys(tags)).toEqual(Object.keys(RECIPIENT_TAGS));
  });
});
