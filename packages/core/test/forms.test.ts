import { describe, expect, it } from 'vitest';
import {
  canSaveUserForm,
  dropUnnamedContacts,
  ipRangeForScope,
  isExternalRoleString,
  passwordFieldsShown,
  roleForScope,
  validatePayee,
  validateRecipient,
  validateRoleGrant,
  validateUserForm,
} from '../src/index.js';

const good = { name: 'Ann', phone: '0412 345 678', email: 'ann@example.com' };

describe('user form', () => {
  it('requires name, phone, email, and userId and password when registering', () => {
    const rules = { creating: true, passwordRequired: true, scopeRequired: false };
    expect(Object.keys(validateUserForm({}, rules)).sort()).toEqual([
      'email',
      'name',
      'password',
      'phone',
      'userId',
    ]);
  });
  it('requires the repeat once a password is typed, and that it matches', () => {
    const rules = { creating: false, passwordRequired: false, scopeRequired: false };
    expect(
      validateUserForm({ ...good, password: 'Correct-Horse-9' }, { ...rules, repeatPassword: '' }),
    ).toEqual({
      repeatPassword: 'Repeat the password.',
    });
    expect(
      validateUserForm({ ...good, password: 'Correct-Horse-9' }, { ...rules, repeatPassword: 'x' }),
    ).toEqual({
      repeatPassword: 'Repeated password does not match.',
    });
    expect(validateUserForm(good, { ...rules, repeatPassword: '' })).toEqual({});
  });
  it('admin form needs a scope and checks the alternate phone', () => {
    const rules = { creating: true, passwordRequired: false, scopeRequired: true };
    expect(validateUserForm({ ...good, userId: 'ann', alternatePhone: 'x' }, rules)).toEqual({
      scope: 'Scope is required.',
      alternatePhone: expect.stringContaining('valid phone'),
    });
  });
  it('enables save only when dirty, idle and valid', () => {
    const rules = { creating: false, passwordRequired: false, scopeRequired: false, repeatPassword: '' };
    expect(canSaveUserForm(good, rules, { dirty: true, busy: false })).toBe(true);
    expect(canSaveUserForm(good, rules, { dirty: false, busy: false })).toBe(false);
    expect(canSaveUserForm(good, rules, { dirty: true, busy: true })).toBe(false);
    expect(canSaveUserForm({ ...good, password: 'weak' }, rules, { dirty: true, busy: false })).toBe(false);
  });
});

describe('password fields of the account and admin user forms', () => {
  const sso = (enablePasswordHandling: boolean) => ({ applications: [], enablePasswordHandling });
  it.each([
    ['without single sign-on', undefined, null, true],
    ['with SSO and password handling on', sso(true), null, true],
    ['with SSO and password handling off', sso(false), null, false],
    ['for a user with an external id', undefined, 'idp|42', false],
    ['for a user with an external id, password handling on', sso(true), 'idp|42', false],
    ['with SSO off-handling and an external id', sso(false), 'idp|42', false],
    ['for an empty external id', sso(true), '', true],
  ])('%s', (_case, singleSignOn, externalUserId, shown) => {
    expect(passwordFieldsShown(singleSignOn, externalUserId)).toBe(shown);
  });
});

describe('add role', () => {
  it('self-service needs scope and reference', () => {
    expect(validateRoleGrant({}, true)).toEqual({
      scope: 'Scope is required.',
      externalReference: 'External reference is required.',
    });
    expect(validateRoleGrant({ scope: '/org/acme/', externalReference: 'ADV-1' }, true)).toEqual({});
  });
  it('admin needs role and scope; a reference only for the external role', () => {
    expect(validateRoleGrant({ role: 'c:roles:handler', scope: '/' }, false)).toEqual({});
    expect(validateRoleGrant({ role: 'c:roles:external', scope: '/' }, false)).toEqual({
      externalReference: 'External reference is required.',
    });
    expect(
      validateRoleGrant({ role: 'c:roles:handler', scope: '/', externalReference: 'x' }, false),
    ).toHaveProperty('externalReference');
  });
  it('refuses a control character in the reference: it would be approved into the role string', () => {
    for (const externalReference of ['A\r\nB', 'A\nB', 'A\tB', 'A\u0000B'])
      expect(validateRoleGrant({ scope: '/org/acme/', externalReference }, true)).toEqual({
        externalReference: 'Contains characters that are not allowed.',
      });
    expect(validateRoleGrant({ scope: '/org/acme/', externalReference: 'A\u2028B' }, true)).toEqual({});
  });
  it('recognises external role strings', () => {
    expect(isExternalRoleString('c:roles:external:ADV%401@/org/acme/')).toBe(true);
    expect(isExternalRoleString('c:roles:admin@/')).toBe(false);
  });
});

describe('recipient and payee', () => {
  it('recipient needs name and phone; required tags need a value', () => {
    const tags = { region: { id: 'region', name: 'Region', values: ['north', 'south'], isRequired: true } };
    expect(validateRecipient({ tags })).toEqual({
      name: 'Name is required.',
      phone: 'Phone is required.',
      'tags.region': 'Region is required.',
    });
    expect(
      validateRecipient({
        name: 'X',
        phone: '02 9876 5432',
        tags: { region: { ...tags.region, value: 'north' } },
      }),
    ).toEqual({});
  });
  it('drops contacts without a name', () => {
    expect(dropUnnamedContacts([{ name: 'A' }, { name: '  ', email: 'x@y.z' }])).toEqual([{ name: 'A' }]);
  });
  it('payee needs name and a known currency', () => {
    expect(validatePayee({})).toEqual({ name: 'Name is required.', currency: 'Currency is required.' });
    expect(validatePayee({ name: 'P', currency: 'XYZ' })).toEqual({
      currency: 'Choose one of the currencies.',
    });
    expect(validatePayee({ name: 'P', currency: 'AUD' })).toEqual({});
  });
});

describe('scope changes on the user form', () => {
  it('keeps the IP range when the new scope has it, else takes the first of the new scope', () => {
    const ranges = [{ id: 'office' }, { id: 'vpn' }];
    expect(ipRangeForScope('vpn', ranges)).toBe('vpn');
    expect(ipRangeForScope('home', ranges)).toBe('office');
    expect(ipRangeForScope(null, ranges)).toBe('office');
    expect(ipRangeForScope('vpn', [])).toBeNull();
  });
  it('clears a role not offered at the new role scope', () => {
    expect(roleForScope('c:roles:admin', ['c:roles:admin', 'c:roles:handler'])).toBe('c:roles:admin');
    expect(roleForScope('c:roles:admin', [])).toBeUndefined();
    expect(roleForScope(undefined, ['c:roles:admin'])).toBeUndefined();
  });
});
