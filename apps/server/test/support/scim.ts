import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { seedConfiguration } from '../../src/db/seedConfiguration.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';

// SCIM tests drive a client the way an identity provider does: a client entry saved in the
// configuration editor, its token made there, then /scim/v2 calls with that token. Two clients:
// "entra" of /org/acme/ (externalId is the sub; the group Handlers maps to handler at /org/acme/,
// and to admin at / which lies outside its scope) and "okta" of /org/globex/ (userName is the sub).

export const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';

export const userBody = (userName: string, more: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  externalId: `ext-${userName}`,
  name: { givenName: 'Pat', familyName: userName },
  emails: [{ value: `${userName.split('@')[0]}@acme.example`, type: 'work', primary: true }],
  active: true,
  ...more,
});

export interface ScimHarness {
  t: TestContext;
  root: string;
  acmeToken: string;
  globexToken: string;
  post(url: string, payload: unknown, cookie?: string): Promise<LightMyRequestResponse>;
  saveClient(configurationId: string, id: string, data: unknown): Promise<void>;
  newToken(configurationId: string, id: string, cookie?: string): Promise<string>;
  scim(method: string, url: string, payload?: unknown, token?: string): Promise<LightMyRequestResponse>;
  rolesOf(userId: string): Promise<string[]>;
}

export async function startScim(): Promise<ScimHarness> {
  const t = await createTestContext();
  await seedConfiguration(t.db, { demo: true });
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  const h = { t, root: await signIn(t.app, 'root'), acmeToken: '', globexToken: '' } as ScimHarness;
  h.post = (url, payload, cookie = h.root) =>
    t.app.inject({ method: 'POST', url, headers: { ...XHR, cookie }, payload: payload as object });
  h.saveClient = async (configurationId, id, data) => {
    const res = await h.post(`/admin/configuration/edit/${configurationId}/${id}`, {
      name: `SCIM ${id}`,
      order: 0,
      isDefault: false,
      isDisabled: false,
      type: 'scimClientEntry',
      data,
      version: null,
    });
    expect(res.statusCode, res.body).toBe(200);
  };
  h.newToken = async (configurationId, id, cookie = h.root) => {
    const res = await h.post(
      `/admin/configuration/edit/${configurationId}/${id}/scim-token`,
      undefined,
      cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().token as string;
  };
  h.scim = (method, url, payload, token = h.acmeToken) => {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (payload === undefined)
      return t.app.inject({ method: method as 'GET', url: `/scim/v2${url}`, headers });
    headers['content-type'] = 'application/scim+json';
    const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
    return t.app.inject({ method: method as 'POST', url: `/scim/v2${url}`, headers, payload: body });
  };
  h.rolesOf = async (userId) =>
    (await t.db.selectFrom('user_roles').select(['role', 'scope']).where('user_id', '=', userId).execute())
      .map((r) => `${r.role}@${r.scope}`)
      .sort();
  await h.saveClient('orgAcme', 'entra', {
    subjectAttribute: 'externalId',
    groupRoles: [
      { group: 'Handlers', role: 'c:roles:handler', scopePath: '/org/acme/' },
      { group: 'Handlers', role: 'c:roles:admin', scopePath: '/' },
    ],
  });
  await h.saveClient('orgGlobex', 'okta', { subjectAttribute: 'userName', groupRoles: [] });
  h.acmeToken = await h.newToken('orgAcme', 'entra');
  h.globexToken = await h.newToken('orgGlobex', 'okta');
  return h;
}
