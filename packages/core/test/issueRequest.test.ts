import { describe, expect, it } from 'vitest';
import { defaultIssueRequestMethod, issueRequestAddress } from '../src/index.js';

// Where an issued request goes per method, and the method the panel proposes.

describe('issueRequestAddress', () => {
  const recipient = {
    email: 'records@clinic.example',
    fax: '02 9000 1111',
    phone: '02 9000 0000',
    postalAddress: 'PO Box 1, Sydney NSW 2001',
    streetAddress: '1 Main Street, Sydney',
  };

  it('answers the address each method needs', () => {
    expect(issueRequestAddress('email', recipient)).toBe('records@clinic.example');
    expect(issueRequestAddress('faxNumber', recipient)).toBe('02 9000 1111');
    expect(issueRequestAddress('postal', recipient)).toBe('PO Box 1, Sydney NSW 2001');
  });

  it('prefers the addressed contact’s email and falls back to the street address', () => {
    expect(issueRequestAddress('email', { ...recipient, contact: { email: 'anna@clinic.example' } })).toBe(
      'anna@clinic.example',
    );
    // A fax goes to a fax number only: never to the phone (issue 33 item 16).
    expect(issueRequestAddress('faxNumber', { ...recipient, fax: ' ' })).toBeUndefined();
    expect(issueRequestAddress('postal', { ...recipient, postalAddress: null })).toBe(
      '1 Main Street, Sydney',
    );
    expect(issueRequestAddress('email', { ...recipient, email: '' })).toBeUndefined();
  });

  it('proposes email, else fax, else post', () => {
    expect(defaultIssueRequestMethod(recipient)).toBe('email');
    expect(defaultIssueRequestMethod({ ...recipient, email: null })).toBe('faxNumber');
    expect(defaultIssueRequestMethod({ postalAddress: 'PO Box 1' })).toBe('postal');
    expect(defaultIssueRequestMethod({ ...recipient, email: null, fax: null })).toBe('postal');
    expect(defaultIssueRequestMethod({})).toBe('postal');
  });
});
