import type { Actor } from '../../src/http/actor.js';

// The actors the report-count tests run the former queries as: an administrator of the whole
// service and a manager of Globex, with reports:view where their role is.

const actorAt = (role: string, scope: string): Actor => ({
  id: 'reference',
  name: 'Reference',
  email: 'reference@test.example',
  locale: 'en-au',
  countryCode: '+61',
  scope,
  roles: [{ role, scope }],
  permissions: ['reports:view'],
  sessionId: 's',
});

export const REPORT_ACTORS = {
  admin: actorAt('c:roles:admin', '/'),
  globex: actorAt('c:roles:manager', '/org/globex/'),
};
