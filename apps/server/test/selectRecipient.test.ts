import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from './accountsHelpers.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// /requests/{n}/select-recipient and POST /requests/{n}/recipient: the directory search bound to
// the address, the new-from-search email rule, saving the snapshot with its checks, and the
// recipient's state new / updated / unchanged.

let t: TestContext;
let handler: ReturnType<typeof caller>;
let globexHandler: ReturnType<typeof caller>;
let submitter: ReturnType<typeof caller>;
let requestNumber: string;
let closedNumber: string;
let directoryId: string;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/org/acme/' }] });
  await createUser(t.db, {
    id: 'globexhandler',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  handler = caller(t.app, await signIn(t.app, 'handler'));
  globexHandler = caller(t.app, await signIn(t.app, 'globexhandler'));
  submitter = caller(t.app, await signIn(t.app, 'submitter'));
  requestNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM' });
  closedNumber = await insertTestRequest(t.db, { scope: '/org/acme/', prefix: 'ACM', status: 'closed' });
  const created = await handler.post('/admin/recipients/edit', {
    name: 'Sydney Eye Hospital',
    phone: '02 9382 7111',
    email: 'records@sydeye.example',
    postalAddress: 'PO Box 1, Sydney NSW 2000',
    country: 'AU',
    tags: { kind: { id: 'kind', name: 'Kind', values: ['hospital'], isRequired: true, value: 'hospital' } },
    contacts: [{ name: 'Dr Ada Lens', position: 'Records', email: 'ada@sydeye.example' }],
  });
  expect(created.statusCode).toBe(200);
  directoryId = created.json().recipientId;
});
afterAll(() => t.close());

const viewUrl = (n: string, query = '') => `/requests/${n}/select-recipient${query ? `?${query}` : ''}`;
const stored = () =>
  t.db
    .selectFrom('requests')
    .select(['recipient', 'recipient_id', 'recipient_name', 'version'])
    .where('request_number', '=', requestNumber)
    .executeTakeFirstOrThrow();

describe('select recipient', () => {
  it('shows the current recipient as new and runs the search from the address', async () => {
    const idle = (await handler.get(viewUrl(requestNumber))).json();
    expect(idle).toMatchObject({ $type: 'selectRecipient', requestNumber, isClosed: false });
    expect(idle.current.state).toBe('new');
    expect(idle.search.result).toBeUndefined();
    const view = (await handler.get(viewUrl(requestNumber, 'search.name=eye&search._trigger=1'))).json();
    expect(view.search.terms.name).toBe('eye');
    expect(view.search.result.hits.map((h: { id: string }) => h.id)).toEqual([directoryId]);
    expect(view.search.result.hits[0].item).toMatchObject({ recipientId: directoryId, version: 1 });
    expect(view.search.result.summary).toBe('Showing 1 search result(s).');
  });

  it('takes the searched email into a new recipient only when it is valid', async () => {
    const valid = (
      await handler.get(viewUrl(requestNumber, 'enterNew=1&search.email=new@clinic.example'))
    ).json();
    expect(valid.enterNew).toBe(true);
    expect(valid.newRecipient.email).toBe('new@clinic.example');
    const invalid = (await handler.get(viewUrl(requestNumber, 'enterNew=1&search.email=new@'))).json();
    expect(invalid.newRecipient.email).toBeNull();
  });

  it('refuses handlers of another scope and non-handlers', async () => {
    expect((await globexHandler.get(viewUrl(requestNumber))).statusCode).toBe(403);
    expect((await submitter.get(viewUrl(requestNumber))).statusCode).toBe(403);
    const before = await stored();
    const res = await globexHandler.post(`/requests/${requestNumber}/recipient`, {
      version: before.version,
      recipient: { name: 'Evil', phone: '02 9000 0000' },
    });
    expect(res.statusCode).toBe(403);
    expect(await stored()).toEqual(before);
    expect((await handler.get(viewUrl('ACM000000AAA00'))).statusCode).toBe(404);
  });

  it('answers 400 per field and changes nothing', async () => {
    const before = await stored();
    const res = await handler.post(`/requests/${requestNumber}/recipient`, {
      version: before.version,
      recipient: { name: ' ', phone: '', email: 'nope', contact: { name: 'X', email: 'bad' } },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['contact.email', 'email', 'name', 'phone']);
    expect((await handler.post(`/requests/${requestNumber}/recipient`, { recipient: {} })).statusCode).toBe(
      400,
    );
    expect(await stored()).toEqual(before);
  });

  it('saves a picked recipient unchanged, records the event and moves the version on', async () => {
    const hit = (await handler.get(viewUrl(requestNumber, 'search.name=eye&search._trigger=1'))).json().search
      .result.hits[0].item;
    const before = await stored();
    const res = await handler.post(`/requests/${requestNumber}/recipient`, {
      version: before.version,
      recipient: { ...hit, contact: { name: 'Dr Ada Lens', position: 'Records' } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ state: 'unchanged', version: before.version + 1 });
    const after = await stored();
    expect(after).toMatchObject({ recipient_id: directoryId, recipient_name: 'Sydney Eye Hospital' });
    expect(after.recipient).toMatchObject({
      contacts: [],
      contact: { name: 'Dr Ada Lens', position: 'Records' },
    });
    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('aggregate_type', '=', 'request')
      .where('aggregate_id', '=', requestNumber)
      .where('type', '=', 'request.recipientChanged')
      .executeTakeFirstOrThrow();
    const payload = event.payload as { summary: string; changes: Record<string, unknown> };
    expect(payload.summary).toBe(
      'The recipient was changed from Northside Medical Centre to Sydney Eye Hospital.',
    );
    expect(payload.changes).toHaveProperty('name');
    expect((await handler.get(viewUrl(requestNumber))).json().current.state).toBe('unchanged');
  });

  it('shows the state updated once the fields differ from the directory version', async () => {
    const before = await stored();
    const current = before.recipient as Record<string, unknown>;
    const res = await handler.post(`/requests/${requestNumber}/recipient`, {
      version: before.version,
      recipient: {
        ...current,
        phone: '02 9382 7000',
        contact: { name: '', email: 'dropped@sydeye.example' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().state).toBe('updated');
    expect((await stored()).recipient).toMatchObject({ phone: '+61293827000', contact: null });
    expect((await handler.get(viewUrl(requestNumber))).json().current.state).toBe('updated');
  });

  it('answers 409 to a stale version and on a closed request, changing nothing', async () => {
    const before = await stored();
    const stale = await handler.post(`/requests/${requestNumber}/recipient`, {
      version: before.version - 1,
      recipient: { name: 'Late Clinic', phone: '02 9000 0001' },
    });
    expect(stale.statusCode).toBe(409);
    expect(await stored()).toEqual(before);
    const view = (await handler.get(viewUrl(closedNumber))).json();
    expect(view.isClosed).toBe(true);
    const closed = await handler.post(`/requests/${closedNumber}/recipient`, {
      version: view.version,
      recipient: { name: 'Late Clinic', phone: '02 9000 0001' },
    });
    expect(closed.statusCode).toBe(409);
  });
});
