import { seedConfiguration } from '../../src/db/seedConfiguration.js';
import { createUser, signIn, type TestContext, XHR } from '../helpers.js';

/**
 * The people of the configuration tests, signed in: an administrator at the root, Acme's submitter
 * and Globex's submitter (who may not edit). Seeds the configuration first, with or without the
 * demo entries.
 */
export async function createConfigurationPeople(t: TestContext, options: { demo: boolean }) {
  await seedConfiguration(t.db, options);
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'sub',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'glx',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  return {
    admin: await signIn(t.app, 'root'),
    submitter: await signIn(t.app, 'sub'),
    globex: await signIn(t.app, 'glx'),
  };
}

/** GET and POST as a signed-in user (the administrator unless told), read when each call is made. */
export function configurationCalls(context: () => TestContext, defaultCookie: () => string) {
  return {
    get: (url: string, cookie = defaultCookie()) =>
      context().app.inject({ url, headers: { ...XHR, cookie } }),
    post: (url: string, payload: unknown, cookie = defaultCookie()) =>
      context().app.inject({ method: 'POST', url, headers: { ...XHR, cookie }, payload: payload as object }),
  };
}

/** A saved entry's body as the editor posts it. */
export const entryBody = (name: string, data: unknown, more: Record<string, unknown> = {}) => ({
  name,
  order: 0,
  isDefault: false,
  isDisabled: false,
  data,
  version: null,
  ...more,
});
