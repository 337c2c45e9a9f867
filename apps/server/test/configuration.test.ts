import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getEffectiveTemplate,
  getScopeEntry,
  listScopeEntries,
} from '../src/features/configuration/effective.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { configurationCalls, createConfigurationPeople } from './support/configuration.js';

let t: TestContext;
let admin: string;
let submitter: string;

beforeAll(async () => {
  t = await createTestContext();
  ({ admin, submitter } = await createConfigurationPeople(t, { demo: false }));
});
afterAll(() => t.close());

const { get, post } = configurationCalls(
  () => t,
  () => admin,
);

describe('configuration list and access', () => {
  it('lists the root configuration to an administrator', async () => {
    const res = await get('/admin/configuration');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ $type: 'configurationList', canEdit: true });
    expect(res.json().configurations).toEqual([
      expect.objectContaining({
        id: 'root',
        scopePath: '/',
        name: 'Dossier',
        inherits: [],
        isInherited: false,
      }),
      // Scopes without a configuration of their own run on an inherited one.
      expect.objectContaining({
        id: '',
        scopePath: '/org/acme/',
        isInherited: true,
        inherits: [expect.objectContaining({ id: 'root' })],
      }),
      expect.objectContaining({ id: '', scopePath: '/org/dossier/', isInherited: true }),
      expect.objectContaining({ id: '', scopePath: '/org/globex/', isInherited: true }),
    ]);
  });

  it('refuses a submitter with 403', async () => {
    expect((await get('/admin/configuration', submitter)).statusCode).toBe(403);
    expect((await get('/admin/configuration/edit/root/c', submitter)).statusCode).toBe(403);
    expect(
      (
        await post(
          '/admin/configuration/edit/root/templateIssueRequest',
          { name: 'x', order: 0, data: {}, version: 1 },
          submitter,
        )
      ).statusCode,
    ).toBe(403);
    expect((await get('/admin/configuration/new?scopePath=/org/x/', submitter)).statusCode).toBe(403);
  });
});

describe('inheritance, override and revert', () => {
  it('adds a configuration for /org/acme/ by scope path', async () => {
    const bad = await get('/admin/configuration/new?scopePath=');
    expect(bad.statusCode).toBe(400);
    const dup = await get('/admin/configuration/new?scopePath=/');
    expect(dup.json().fields.scopePath).toBeDefined();
    const res = await get('/admin/configuration/new?scopePath=org/acme');
    expect(res.json()).toEqual({ id: 'orgAcme', name: 'Acme Insurance', scopePath: '/org/acme/' });
    const draft = await get('/admin/configuration/edit/orgAcme/c?scopePath=/org/acme/&name=Acme');
    expect(draft.json()).toMatchObject({ isNew: true, entry: { type: 'configurationRoot', version: null } });
    const saved = await post('/admin/configuration/edit/orgAcme/c', {
      name: 'Acme',
      order: 1,
      version: null,
      data: { scopePath: '/org/acme/' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ isNew: false, entry: { version: 1 } });
    const list = await get('/admin/configuration');
    expect(list.json().configurations[1]).toMatchObject({
      id: 'orgAcme',
      inherits: [{ id: 'root', name: 'Dossier' }],
    });
  });

  it('shows a root entry inherited and saves an override', async () => {
    const view = (await get('/admin/configuration/edit/orgAcme/templateIssueRequest')).json();
    expect(view.entry).toMatchObject({ isInherited: true, type: 'templateEntry' });
    expect(view.canRevertToInherited).toBe(false);
    const body = {
      type: 'doc',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Acme asks for ${request.requestNumber}' }] },
      ],
    };
    const res = await post('/admin/configuration/edit/orgAcme/templateIssueRequest', {
      ...view.entry,
      data: { ...view.entry.data, body },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      entry: { isInherited: false, version: 1 },
      canRevertToInherited: true,
    });
    const acme = await getEffectiveTemplate(t.db, '/org/acme/branch/x/', 'issueRequest');
    expect(JSON.stringify(acme?.data.body)).toContain('Acme asks');
    const globex = await getEffectiveTemplate(t.db, '/org/globex/', 'issueRequest');
    expect(JSON.stringify(globex?.data.body)).not.toContain('Acme asks');
  });

  it('answers 409 to a save that did not start from the current version', async () => {
    const view = (await get('/admin/configuration/edit/orgAcme/templateIssueRequest')).json();
    const ok = await post('/admin/configuration/edit/orgAcme/templateIssueRequest', {
      ...view.entry,
      name: 'First',
    });
    expect(ok.statusCode).toBe(200);
    const stale = await post('/admin/configuration/edit/orgAcme/templateIssueRequest', {
      ...view.entry,
      name: 'Second',
    });
    expect(stale.statusCode).toBe(409);
  });

  it('reverts to the inherited entry', async () => {
    const res = await post('/admin/configuration/edit/orgAcme/templateIssueRequest/revert', undefined);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ entry: { isInherited: true }, canRevertToInherited: false });
    const acme = await getEffectiveTemplate(t.db, '/org/acme/', 'issueRequest');
    expect(JSON.stringify(acme?.data.body)).not.toContain('Acme asks');
    expect(
      (await post('/admin/configuration/edit/orgAcme/templateIssueRequest/revert', undefined)).statusCode,
    ).toBe(400);
  });
});

describe('the effective configuration', () => {
  it('lists the seeded scopes', async () => {
    const scopes = await listScopeEntries(t.db);
    expect(scopes.map((s) => s.scopePath)).toEqual(['/', '/org/acme/', '/org/dossier/', '/org/globex/']);
    expect((await getScopeEntry(t.db, '/org/acme/'))?.usages).toContain('submitRequest');
  });
});

describe('an administrator of one scope', () => {
  it('sees the root configuration read-only and edits its own', async () => {
    await createUser(t.db, {
      id: 'acmeadmin',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
    });
    const cookie = await signIn(t.app, 'acmeadmin');
    const list = (await get('/admin/configuration', cookie)).json();
    expect(list.configurations.map((c: { scopePath: string }) => c.scopePath)).toEqual(['/', '/org/acme/']);
    const root = (await get('/admin/configuration/edit/root/templateIssueRequest', cookie)).json();
    expect(root).toMatchObject({ canEdit: false, canRevertToInherited: false });
    const refused = await post(
      '/admin/configuration/edit/root/templateIssueRequest',
      { ...root.entry, name: 'x' },
      cookie,
    );
    expect(refused.statusCode).toBe(403);
    const own = (await get('/admin/configuration/edit/orgAcme/templateIssueRequest', cookie)).json();
    expect(own).toMatchObject({ canEdit: true, entry: { isInherited: true } });
    expect((await get('/admin/configuration/new?scopePath=/org/globex/', cookie)).statusCode).toBe(403);
    expect((await get('/admin/configuration/new?scopePath=/org/acme/branch/x/', cookie)).statusCode).toBe(
      200,
    );
  });
});
