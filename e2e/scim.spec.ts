import { expect as baseExpect, type Page } from '@playwright/test';
import { withDatabase } from './db';
import { ADMIN, DEMO_PASSWORD, signIn, signInAtProvider, test } from './fixtures';
import { PORT } from './playwright.config';

// Issue 17 in the configuration editor: an administrator adds a SCIM client to the configuration of
// /org/acme/, maps a provider group to a role, and creates the client's token, which is shown once.
// The token then provisions a user and its group; that user signs in through the identity provider's
// login form and is signed out by the provider (back-channel logout); the administrator finds the
// user linked on the users page, with the role its group gave, and unlinks it from single sign-on.

// The editor's parts load on demand; on a machine shared with other builds that can take a while.
const expect = baseExpect.configure({ timeout: 30_000 });

async function chooseOption(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('a SCIM client gets its token once in the configuration, and the token provisions users', async ({
  page,
  browser,
}) => {
  // Many steps, on a machine shared with other builds.
  test.setTimeout(180_000);
  await signIn(page, ADMIN.username, ADMIN.password, '/admin/configuration/edit/orgAcme/c');
  const id = `entra${Date.now()}`;
  await page.getByTestId('add-child-name').fill('Entra ID');
  await page.getByTestId('add-child-id').fill(id);
  await chooseOption(page, 'add-child-type', 'SCIM client');
  await page.getByTestId('add-child-button').click();
  await expect(page.getByTestId('configuration-entry')).toBeVisible();
  await expect(page.getByTestId('scim-base-url')).toHaveValue(/\/scim\/v2$/);
  await expect(page.getByText('Save the SCIM client to create its token.')).toBeVisible();

  await page.getByTestId('scim-add-mapping').click();
  await page.getByTestId('scim-group-name').fill('Dossier Handlers');
  await chooseOption(page, 'scim-group-role-select', 'handler');
  await expect(page.getByTestId('scim-group-scope')).toHaveValue('/org/acme/');
  await page.getByTestId('save-entry').click();
  await expect(page).toHaveURL(new RegExp(`/admin/configuration/edit/orgAcme/${id}$`));
  await expect(page.getByTestId('scim-token-status')).toHaveText('No token yet.');

  await page.getByTestId('scim-token-create').click();
  const value = page.getByTestId('scim-token-value');
  await expect(value).toHaveText(/^dscim_/);
  const token = (await value.textContent()) ?? '';
  await page.screenshot({ path: test.info().outputPath('scim-token.png'), fullPage: true });

  // Shown once: after a reload only its last characters are named.
  await page.reload();
  await expect(page.getByTestId('scim-token-value')).toHaveCount(0);
  await expect(page.getByTestId('scim-token-status')).toContainText(`…${token.slice(-4)}`, {
    timeout: 30_000,
  });
  await expect(page.getByTestId('scim-group-name')).toHaveValue('Dossier Handlers');

  // The identity provider's side, with the token.
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' };
  const created = await page.request.post('/scim/v2/Users', {
    headers,
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `robin.${id}@acme.example`,
      externalId: `entra-oid-${id}`,
      name: { givenName: 'Robin', familyName: 'Provisioned' },
      emails: [{ value: `robin.${id}@acme.example`, primary: true }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const user = await created.json();
  const refused = await page.request.get('/scim/v2/Users', {
    headers: { Authorization: 'Bearer dscim_wrong' },
  });
  expect(refused.status()).toBe(401);

  const group = await page.request.post('/scim/v2/Groups', {
    headers,
    data: {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Dossier Handlers',
      members: [{ value: user.id }],
    },
  });
  expect(group.status(), await group.text()).toBe(201);

  // The provisioned person signs in through the provider's own login form, as its subject.
  const robin = await browser.newContext({ baseURL: `http://localhost:${PORT}` });
  const robinPage = await robin.newPage();
  await robinPage.goto('/');
  await robinPage.getByTestId('signin-sso').click();
  await expect(robinPage.getByPlaceholder('Enter any login')).toBeVisible();
  const provider = new URL(robinPage.url()).origin;
  await signInAtProvider(robinPage, `entra-oid-${id}`);
  await expect(robinPage.getByTestId('user-name')).toHaveText('Robin Provisioned');
  // Signed out at the provider (not in Dossier): the provider's back-channel logout ends the session.
  await robinPage.goto(`${provider}/session/end`);
  await robinPage.getByRole('button', { name: 'Yes, sign me out' }).click();
  await robinPage.goto('/');
  await expect(robinPage).toHaveURL(/\/signin/);
  await robin.close();

  await page.goto(`/admin/users/edit/${encodeURIComponent(user.id)}`);
  await expect(page.getByTestId('user-externalUserId')).toHaveValue(`entra-oid-${id}`);
  await expect(page.getByText(`Set by the SCIM client orgAcme/${id}.`)).toBeVisible();
  await expect(page.getByTestId('role-groups')).toHaveText('From the group Dossier Handlers');

  // An administrator undoes the link; the page shows the account without it.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByTestId('user-unlink-sso').click();
  await expect(page.getByTestId('user-externalUserId')).toHaveCount(0);
});

test('an administrator of /org/acme/ is told on the field that a group role at /org/globex/ is beyond it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  // An administrator of acme only, with the demo users' password (a copy of Sam Submitter's hash).
  await withDatabase(async (client) => {
    await client.query(
      `insert into users (id, name, email, scope, password_hash, email_confirmed_at)
       select 'e2e.scimadmin', 'Ada Acmeadmin', 'e2e.scimadmin@acme.example', '/org/acme/', password_hash, now()
       from users where id = 'submitter' on conflict do nothing`,
    );
    await client.query(
      `insert into user_roles (user_id, role, scope, external_reference)
       select 'e2e.scimadmin', 'c:roles:admin', '/org/acme/', null
       where not exists (select 1 from user_roles where user_id = 'e2e.scimadmin')`,
    );
  });
  await signIn(page, 'e2e.scimadmin', DEMO_PASSWORD, '/admin/configuration/edit/orgAcme/c');
  const id = `reach${Date.now()}`;
  await page.getByTestId('add-child-name').fill('Reach');
  await page.getByTestId('add-child-id').fill(id);
  await chooseOption(page, 'add-child-type', 'SCIM client');
  await page.getByTestId('add-child-button').click();
  await expect(page.getByTestId('configuration-entry')).toBeVisible();
  await page.getByTestId('scim-add-mapping').click();
  await page.getByTestId('scim-group-name').fill('Globex Handlers');
  await chooseOption(page, 'scim-group-role-select', 'handler');
  await page.getByTestId('scim-group-scope').fill('/org/globex/');
  await page.getByTestId('save-entry').click();
  // On the field (the banner above names it in words too).
  await expect(
    page
      .getByTestId('scim-group-role')
      .getByText('/org/globex/ lies outside your scopes: only an administrator of it may grant roles there.'),
  ).toBeVisible();
  await expect(page.getByTestId('scim-group-scope')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot({ path: test.info().outputPath('scim-scope-refused.png'), fullPage: true });
  // Nothing was saved: the entry is still a new one.
  await expect(page).not.toHaveURL(new RegExp(`/admin/configuration/edit/orgAcme/${id}$`));
});
