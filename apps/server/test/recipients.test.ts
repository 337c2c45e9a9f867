import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';

let t: TestContext;
let handler: ReturnType<typeof caller>;
let manager: ReturnType<typeof caller>;
let submitter: ReturnType<typeof caller>;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, { id: 'manager', roles: [{ role: 'c:roles:manager', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  handler = caller(t.app, await signIn(t.app, 'handler'));
  manager = caller(t.app, await signIn(t.app, 'manager'));
  submitter = caller(t.app, await signIn(t.app, 'submitter'));
});
afterAll(() => t.close());

const recipient = (extra: Record<string, unknown> = {}) => ({
  name: 'Sydney Hospital',
  phone: '02 9382 1111',
  email: 'records@sydhosp.example',
  streetAddress: '8 Macquarie St\nSydney NSW 2000',
  tags: { kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' } },
  contacts: [
    { name: 'Dr Jane Roe', position: 'Records', phone: '0412 000 111', email: 'jane@sydhosp.example' },
    { name: '', email: 'nobody@sydhosp.example' },
  ],
  ...extra,
});

let id: string;

describe('recipients', () => {
  it('refuses users without the permission', async () => {
    expect((await submitter.get('/admin/recipients')).statusCode).toBe(403);
    expect((await submitter.get('/admin/recipients/search')).statusCode).toBe(403);
    expect((await submitter.post('/admin/recipients/edit', recipient())).statusCode).toBe(403);
    expect((await manager.post('/admin/recipients/edit', recipient())).statusCode).toBe(403);
  });

  it('creates version 1, drops the contact without a name, and records the change', async () => {
    const res = await handler.post('/admin/recipients/edit', recipient());
    expect(res.statusCode).toBe(200);
    const view = res.json();
    id = view.recipientId;
    expect(view.recipient).toMatchObject({ name: 'Sydney Hospital', phone: '+61293821111', version: 1 });
    expect(view.recipient.contacts).toEqual([
      { name: 'Dr Jane Roe', position: 'Records', phone: '+61412000111', email: 'jane@sydhosp.example' },
    ]);
    expect(view.history[0]).toMatchObject({ type: 'recipientCreated', actor: 'handler' });
  });

  it('answers 400 per field', async () => {
    const res = await handler.post('/admin/recipients/edit', recipient({ name: '', phone: '', tags: {} }));
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      name: 'Name is required.',
      phone: 'Phone is required.',
      'tags.kind': 'Kind is required.',
    });
  });

  it('makes a new version at each save and keeps the old ones', async () => {
    const view = (await handler.get(`/admin/recipients/edit/${id}`)).json();
    const saved = await handler.post(`/admin/recipients/edit/${id}`, {
      ...view.recipient,
      name: 'Sydney Hospital (East)',
    });
    expect(saved.json().recipient.version).toBe(2);
    expect(saved.json().history[0].changes.name).toEqual({
      from: 'Sydney Hospital',
      to: 'Sydney Hospital (East)',
    });
    const versions = await t.db
      .selectFrom('recipient_versions')
      .selectAll()
      .where('recipient_id', '=', id)
      .orderBy('version')
      .execute();
    expect(versions.map((v) => (v.data as { name: string }).name)).toEqual([
      'Sydney Hospital',
      'Sydney Hospital (East)',
    ]);
  });

  it('answers 409 on a stale version and overwrites nothing', async () => {
    const res = await handler.post(`/admin/recipients/edit/${id}`, {
      ...recipient(),
      name: 'Lost update',
      version: 1,
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('changed by someone else');
    const row = await t.db
      .selectFrom('recipients')
      .select(['name', 'version'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ name: 'Sydney Hospital (East)', version: 2 });
  });

  it('lets a manager read but not edit; 404 for an unknown id', async () => {
    const view = await manager.get(`/admin/recipients/edit/${id}`);
    expect(view.json().canEdit).toBe(false);
    expect((await handler.get('/admin/recipients/edit/999999')).statusCode).toBe(404);
    expect((await handler.get('/admin/recipients/edit/abc')).statusCode).toBe(404);
  });

  it('searches by name, phone, address and email with paging', async () => {
    for (let i = 0; i < 3; i++) {
      await handler.post(
        '/admin/recipients/edit',
        recipient({
          name: `Clinic ${i}`,
          email: `c${i}@clinic.example`,
          streetAddress: `${i} George St Brisbane`,
        }),
      );
    }
    expect((await handler.get('/admin/recipients/search?name=clinic')).json().total).toBe(3);
    expect((await handler.get('/admin/recipients/search?address=brisbane&pageSize=2')).json()).toMatchObject({
      total: 3,
      paging: { offset: 0, size: 2 },
    });
    expect((await handler.get('/admin/recipients/search?email=c1@')).json().hits[0].item.name).toBe(
      'Clinic 1',
    );
    expect((await handler.get('/admin/recipients/search?phone=93821111')).json().total).toBe(4);
  });
});
