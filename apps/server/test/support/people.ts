import { createUser, signIn, type TestContext } from '../helpers.js';

/**
 * The people most request tests need: a handler at the root, Acme's submitter and Globex's
 * submitter (another organisation, to be refused), each signed in. Answers their session cookies.
 */
export async function createUsualPeople(t: TestContext) {
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globex',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/globex/' }],
  });
  return {
    handler: await signIn(t.app, 'handler'),
    submitter: await signIn(t.app, 'submitter'),
    globex: await signIn(t.app, 'globex'),
  };
}
