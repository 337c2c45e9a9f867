import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, assert, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLocalStorage } from '../src/files/storage.js';
import { enqueueMail } from '../src/mail/outbox.js';
import { type MailTransport, sendDueMail } from '../src/mail/sender.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';

// The admin outbox (issue 6): outgoing mail listed for administrators newest first, paged and
// filtered, scoped like what it is about, one message with its sanitized body, and "Send again" of a
// failed message, which the sender then retries.

let t: TestContext;
const cookies: Record<string, string> = {};
let acmeRequest: string;
let globexRequest: string;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, { id: 'rosa', scope: '/org/acme/' });
  for (const id of ['root', 'acmeadmin', 'handler', 'submitter']) cookies[id] = await signIn(t.app, id);
  acmeRequest = await insertTestRequest(t.db, { scope: '/org/acme/branch/' });
  globexRequest = await insertTestRequest(t.db, { scope: '/org/globex/' });
});
afterAll(() => t.close());

const get = (url: string, as: string) => t.app.inject({ url, headers: { ...XHR, cookie: cookies[as] } });
const post = (url: string, as: string, headers: Record<string, string> = XHR) =>
  t.app.inject({ method: 'POST', url, headers: { ...headers, cookie: cookies[as] } });

interface Hit {
  id: string;
  item: { to: string; subject: string; status: string; attempts: number; lastError: string | null };
}
const search = async (as: string, query = '') => {
  const res = await get(`/admin/outbox/search?${query}`, as);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { hits: Hit[]; total: number; totalIsCapped: boolean; paging: { offset: number } };
};

/** Marks a message as the sender does after its last attempt failed. */
const fail = (id: string, error = '550 No such user') =>
  t.db
    .updateTable('mail_outbox')
    .set({ attempts: 8, last_error: error, failed_at: new Date() })
    .where('id', '=', id)
    .execute();

/** A transport that accepts every message and notes its address in `to`. */
const recordingTransport = (to: string[]): MailTransport => ({
  async send(mail) {
    to.push(mail.to);
    return '<sent@test.example>';
  },
  close: () => undefined,
});

describe('admin outbox', () => {
  let rootMail: string;
  let acmeMail: string;
  let globexMail: string;
  let sentMail: string;

  beforeAll(async () => {
    rootMail = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, { to: 'Someone@Else.Example', subject: 'no scope', text: 'x' }));
    acmeMail = await t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'records@northside.example',
        subject: `Request ${acmeRequest}`,
        text: 'Please send the records.',
        html: '<p>Please <b>send</b> the records.</p><script>alert(1)</script><a href="javascript:alert(2)">here</a>',
        attachments: [{ fileKey: 'k1', name: 'Request letter.pdf', contentType: 'application/pdf' }],
        requestNumber: acmeRequest,
      }),
    );
    globexMail = await t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'records@globex.example',
        subject: `Request ${globexRequest}`,
        text: 'globex',
        requestNumber: globexRequest,
      }),
    );
    sentMail = await t.db
      .transaction()
      .execute((trx) =>
        enqueueMail(trx, { to: 'sent@test.example', subject: 'gone', text: 'x', scope: '/' }),
      );
    await t.db
      .updateTable('mail_outbox')
      .set({ sent_at: new Date(), attempts: 1 })
      .where('id', '=', sentMail)
      .execute();
  });

  it('refuses the page, the list, a message and Send again to users without mail:view', async () => {
    for (const who of ['handler', 'submitter']) {
      expect((await get('/admin/outbox', who)).statusCode).toBe(403);
      expect((await get('/admin/outbox/search', who)).statusCode).toBe(403);
      expect((await get(`/admin/outbox/${acmeMail}`, who)).statusCode).toBe(403);
      expect((await post(`/admin/outbox/${acmeMail}/actions/resend`, who)).statusCode).toBe(403);
    }
    // A browser opening the address gets the Access Denied page, not JSON.
    const page = await t.app.inject({ url: '/admin/outbox', headers: { cookie: cookies.handler } });
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain('"$type":"accessDenied"');
    expect((await t.app.inject({ url: '/admin/outbox/search', headers: XHR })).statusCode).toBe(401);
  });

  it('offers the page and the menu entry to an administrator', async () => {
    const page = await get('/admin/outbox', 'root');
    expect(page.json()).toMatchObject({ $type: 'adminOutbox', title: 'Outbox' });
    // The menu entry is built from this permission (core menu rules).
    const state = await t.app.inject({ url: '/admin/outbox', headers: { cookie: cookies.acmeadmin } });
    expect(state.body).toContain('"mail:view"');
  });

  it('lists newest first with each message’s status, attempts and error, paged', async () => {
    const all = await search('root');
    const ids = all.hits.map((h) => h.id);
    expect(ids.slice(0, 4)).toEqual([sentMail, globexMail, acmeMail, rootMail]);
    expect(all.hits[0]?.item).toMatchObject({ to: 'sent@test.example', status: 'sent', attempts: 1 });
    expect(all.hits[2]?.item).toMatchObject({ status: 'waiting', attempts: 0, lastError: null });
    const page2 = await search('root', 'pageSize=2&pageOffset=2');
    expect(page2.hits.map((h) => h.id)).toEqual(ids.slice(2, 4));
    expect(page2.total).toBe(all.total);
    expect(page2.paging.offset).toBe(2);
  });

  it('filters by status and by recipient address, ignoring case', async () => {
    const failed = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, { to: 'bounce@test.example', subject: 'bounced', text: 'x' }));
    await fail(failed);
    expect((await search('root', 'status=failed')).hits.map((h) => h.id)).toEqual([failed]);
    expect((await search('root', 'status=sent')).hits.map((h) => h.id)).toEqual([sentMail]);
    const waiting = (await search('root', 'status=waiting')).hits.map((h) => h.id);
    expect(waiting).toEqual(expect.arrayContaining([acmeMail, globexMail, rootMail]));
    expect(waiting).not.toContain(failed);
    expect((await search('root', 'to=someone%40else.example')).hits.map((h) => h.id)).toEqual([rootMail]);
    expect((await search('root', 'to=someone%40else.example&status=sent')).total).toBe(0);
    // Empty fields are no filter.
    expect((await search('root', 'to=&status=')).total).toBe((await search('root')).total);
  });

  it('refuses bad filters with a message per field and changes nothing', async () => {
    const bad = await get('/admin/outbox/search?status=lost&to=not-an-address&pageSize=1000', 'root');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({
      status: 'Choose waiting, sent or failed.',
      to: 'Enter a valid email address.',
      pageSize: expect.any(String),
    });
    expect((await get('/admin/outbox/search?pageOffset=-1', 'root')).statusCode).toBe(400);
  });

  it('shows an administrator of a scope only the mail of its scope; others are not found', async () => {
    const acme = await search('acmeadmin');
    expect(acme.hits.map((h) => h.id)).toEqual([acmeMail]);
    expect((await get(`/admin/outbox/${globexMail}`, 'acmeadmin')).statusCode).toBe(404);
    expect((await get(`/admin/outbox/${rootMail}`, 'acmeadmin')).statusCode).toBe(404);
    expect((await post(`/admin/outbox/${globexMail}/actions/resend`, 'acmeadmin')).statusCode).toBe(404);
    expect((await get(`/admin/outbox/${acmeMail}`, 'acmeadmin')).statusCode).toBe(200);
    expect((await get('/admin/outbox/no-such-id', 'root')).statusCode).toBe(404);
    expect((await get('/admin/outbox/999999999', 'root')).statusCode).toBe(404);

    // Account mail belongs to the user's scope.
    const reset = await t.app.inject({
      method: 'POST',
      url: '/reset-password',
      headers: XHR,
      payload: { email: 'rosa@test.example' },
    });
    expect(reset.statusCode).toBe(200);
    const [newest] = (await search('acmeadmin')).hits;
    assert(newest);
    expect(newest.item).toMatchObject({ to: 'rosa@test.example', subject: 'Reset your password' });
  });

  it('opens a message with its sanitized body and attachment names', async () => {
    const res = await get(`/admin/outbox/${acmeMail}`, 'root');
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      $type: 'adminOutboxMessage',
      actions: [],
      mail: {
        id: acmeMail,
        to: 'records@northside.example',
        status: 'waiting',
        scope: '/org/acme/branch/',
        text: 'Please send the records.',
        attachments: [{ name: 'Request letter.pdf', contentType: 'application/pdf' }],
      },
    });
    expect(view.mail.html).toContain('<b>send</b>');
    expect(view.mail.html).not.toContain('script');
    expect(view.mail.html).not.toContain('javascript:');
    expect(view.mail.html).toContain('href="about:blank"');
    expect(view.mail.attachments[0]).not.toHaveProperty('fileKey');
  });

  it('queues a failed message again, once, and only a failed one', async () => {
    for (const id of [acmeMail, sentMail]) {
      const refused = await post(`/admin/outbox/${id}/actions/resend`, 'root');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('Only a message whose sending failed can be sent again.');
    }
    await t.db
      .insertInto('correspondence')
      .values({
        request_number: acmeRequest,
        kind: 'issuedRequest',
        subject: 'letter',
        body: JSON.stringify({ type: 'text', content: 'x' }),
        mail_outbox_id: acmeMail,
        message_delivery_status: 'failed',
      })
      .execute();
    await fail(acmeMail, 'connect ECONNREFUSED');
    // Without X-Requested-With a state change is refused (CSRF).
    expect((await post(`/admin/outbox/${acmeMail}/actions/resend`, 'acmeadmin', {})).statusCode).toBe(403);
    expect((await get(`/admin/outbox/${acmeMail}`, 'acmeadmin')).json().actions).toEqual(['resend']);
    expect((await post(`/admin/outbox/${acmeMail}/actions/unknown`, 'acmeadmin')).statusCode).toBe(404);

    const res = await post(`/admin/outbox/${acmeMail}/actions/resend`, 'acmeadmin');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      $type: 'adminOutboxMessage',
      actions: [],
      mail: { status: 'waiting', attempts: 0, lastError: 'connect ECONNREFUSED' },
    });
    const row = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', acmeMail)
      .executeTakeFirstOrThrow();
    expect(row.failed_at).toBeNull();
    expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
    const letter = await t.db
      .selectFrom('correspondence')
      .select('message_delivery_status')
      .where('mail_outbox_id', '=', acmeMail)
      .executeTakeFirstOrThrow();
    expect(letter.message_delivery_status).toBe('queued');
    const events = await t.db.selectFrom('events').selectAll().where('type', '=', 'mail.resent').execute();
    expect(events).toMatchObject([{ aggregate_type: 'mail', aggregate_id: acmeMail, actor: 'acmeadmin' }]);
    expect((await post(`/admin/outbox/${acmeMail}/actions/resend`, 'acmeadmin')).statusCode).toBe(409);

    // The sender (running with SMTP_URL) takes it on its next pass.
    const delivered: string[] = [];
    const transport = recordingTransport(delivered);
    // The letter it carries is read from file storage, as in real sending.
    const storage = createLocalStorage(t.config.files.dir);
    await storage.write('k1', Readable.from([Buffer.from('%PDF-1.4 letter')]));
    await sendDueMail(t.db, transport, 'Dossier <no-reply@test.example>', 50, storage);
    expect(delivered).toContain('records@northside.example');
    expect((await get(`/admin/outbox/${acmeMail}`, 'root')).json().mail).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
    });
  });
});

describe('the sender', () => {
  it("sends a message as soon as it is committed, by the database's clock, whatever the app's says", async () => {
    // next_attempt_at is the database's now(): a message compared with the app's clock was not due
    // when that clock was behind, or in the same millisecond (milliseconds against microseconds).
    const id = await t.db
      .transaction()
      .execute((trx) => enqueueMail(trx, { to: 'clock@test.example', subject: 'Due at once', text: 'x' }));
    const sent: string[] = [];
    const transport = recordingTransport(sent);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
    try {
      await sendDueMail(t.db, transport, 'Dossier <no-reply@test.example>', 50);
    } finally {
      vi.useRealTimers();
    }
    expect(sent).toContain('clock@test.example');
    const row = await t.db
      .selectFrom('mail_outbox')
      .select('sent_at')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
  });
});

describe('admin outbox at volume', () => {
  it('stops counting at 10,000 and says so', async () => {
    await createUser(t.db, { id: 'bulkadmin', roles: [{ role: 'c:roles:admin', scope: '/org/bulk/' }] });
    cookies.bulkadmin = await signIn(t.app, 'bulkadmin');
    await sql`
      insert into mail_outbox ("to", subject, text, scope, sent_at)
      select 'bulk' || g || '@test.example', 'bulk ' || g, 'x', '/org/bulk/', now()
      from generate_series(1, 10050) g`.execute(t.db);
    const answer = await search('bulkadmin', 'pageSize=5&status=sent');
    expect(answer.total).toBe(10_000);
    expect(answer.totalIsCapped).toBe(true);
    expect(answer.hits[0]?.item.to).toBe('bulk10050@test.example');
    expect((await get('/admin/outbox/search?pageOffset=10001', 'bulkadmin')).statusCode).toBe(400);
  });
});
