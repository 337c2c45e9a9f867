import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { flushAccessLogs } from '../src/audit/accessLog.js';
import { createUser, signIn, type TestContext, XHR } from './helpers.js';
import { pdfText } from './support/pdf.js';
import {
  answer,
  cookie,
  enter,
  issued,
  page,
  REFUSED,
  upload,
  useRecipientWorld,
  world,
} from './support/recipientWorld.js';
import { get, post } from './support/resultsInvoices.js';

// Issue 34: the recipient answers online. A link and a passcode per issue, each in a mail of its
// own; the link alone opens nothing; a session bound to its one request. Its reads are in the
// access log.

useRecipientWorld();
let t: TestContext;
beforeAll(() => {
  t = world.t;
});

describe('the recipient access', () => {
  it('mails the link with the letter and the passcode apart; only both open the page', async () => {
    const { n, token, passcode, mail } = await issued();
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['records@northside.example', 'Request for records'],
      ['records@northside.example', `Passcode for request ${n}`],
    ]);
    expect(token.length).toBeGreaterThanOrEqual(22); // 128 bits and more
    expect(mail[0]?.text).not.toContain(passcode);
    expect(mail[1]?.text).not.toContain(token);
    const row = await t.db
      .selectFrom('recipient_accesses')
      .selectAll()
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(row.passcode_hash).not.toContain(passcode);

    // The link alone shows the passcode form and nothing of the request.
    const alone = await page(token);
    expect(alone.statusCode).toBe(200);
    expect(alone.json()).toEqual({
      $type: 'recipientPage',
      title: 'Answer a records request',
      token,
      state: 'passcode',
    });

    // The page has the strict security policy of every page, and hands its address on to no one.
    const html = await t.app.inject({ url: `/r/${token}` });
    const signin = await t.app.inject({ url: '/signin' });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.headers['content-security-policy']).toBe(signin.headers['content-security-policy']);
    expect(html.headers['referrer-policy']).toBe('no-referrer');

    const wrong = await enter(token, 'AAAAAAAA');
    const wrongLink = await enter(`${token}x`, passcode);
    expect(wrong.res.statusCode).toBe(400);
    expect(wrongLink.res.statusCode).toBe(400);
    expect(wrong.res.json()).toEqual(wrongLink.res.json());
    expect(wrong.res.json().fields.passcode).toBe(REFUSED);

    const right = await enter(token, passcode.toLowerCase());
    expect(right.res.statusCode, right.res.body).toBe(200);
    const view = right.res.json();
    expect(view.state).toBe('open');
    expect(view.request.requestNumber).toBe(n);
    expect(view.request.applicant.name).toBe('Jane Citizen');
    expect(view.request.letter.name).toBe(`Request ${n}.pdf`);
    // The cookie is for this link's path only: no other route of the app is sent it.
    const set = right.res.cookies.find((c) => c.name === 'dossier_recipient');
    expect(set?.path).toBe(`/r/${token}`);
    expect(set?.httpOnly).toBe(true);
    expect((await page(token, right.cookie)).json().state).toBe('open');
    const letter = await t.app.inject({
      url: `/r/${token}/files/${view.request.letter.key}`,
      headers: { cookie: right.cookie },
    });
    expect(letter.statusCode).toBe(200);
    expect(letter.headers['content-type']).toBe('application/pdf');

    // The recipient's session reaches no staff route.
    const staff = await t.app.inject({ url: `/requests/${n}`, headers: { ...XHR, cookie: right.cookie } });
    expect(staff.statusCode).toBe(401);
    const files = await t.app.inject({
      url: `/files/${view.request.letter.key}`,
      headers: { ...XHR, cookie: right.cookie },
    });
    expect(files.statusCode).toBe(401);

    // The staff page shows the access, opened.
    const staffView = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(staffView.recipientAccesses).toHaveLength(1);
    expect(staffView.recipientAccesses[0]).toMatchObject({
      method: 'email',
      sentTo: 'records@northside.example',
      status: 'open',
    });
    expect(staffView.recipientAccesses[0].firstOpenedAt).not.toBeNull();
    // The sender side sees nothing of it.
    const senderView = (await get(t, cookie.submitter, `/requests/${n}`)).json();
    expect(senderView.recipientAccesses).toBeUndefined();
  });

  it('prints link and passcode in a letter issued by post, and they open the page', async () => {
    const { n, mail } = await issued('postal');
    expect(mail).toHaveLength(0);
    const letter = await t.db
      .selectFrom('correspondence')
      .select(['attachments', 'body'])
      .where('request_number', '=', n)
      .where('kind', '=', 'issuedRequest')
      .executeTakeFirstOrThrow();
    const key = letter.attachments[0]?.key ?? '';
    const pdf = await t.app.inject({ url: `/files/${key}`, headers: { ...XHR, cookie: cookie.handler } });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    const token = /\/r\/([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';
    const passcode = /passcode ([A-Z0-9]{8})/.exec(text)?.[1] ?? '';
    expect(token).not.toBe('');
    expect(passcode).not.toBe('');
    // The record of the letter, which the sender side reads, has the link but not the passcode.
    expect(JSON.stringify(letter.body)).toContain(`/r/${token}`);
    expect(JSON.stringify(letter.body)).not.toContain(passcode);
    expect((await enter(token, passcode)).res.statusCode).toBe(200);
    // The letter printed with the passcode is the recipient's: the sender side cannot open it.
    const bySender = await t.app.inject({
      url: `/files/${key}`,
      headers: { ...XHR, cookie: cookie.submitter },
    });
    expect(bySender.statusCode).toBe(403);
    const senderView = (await get(t, cookie.submitter, `/requests/${n}`)).json();
    const issuedEntry = senderView.correspondence.find((e: { kind: string }) => e.kind === 'issuedRequest');
    expect(issuedEntry.attachments.map((a: { key: string }) => a.key)).not.toContain(key);
  });

  it('locks after 5 wrong passcodes, even for the right one, until staff re-send', async () => {
    const { n, token, passcode } = await issued();
    for (let i = 0; i < 5; i++) expect((await enter(token, 'WRONG000')).res.statusCode).toBe(400);
    const locked = await enter(token, passcode);
    expect(locked.res.statusCode).toBe(400);
    expect(locked.res.json().fields.passcode).toBe(REFUSED);
    let staffView = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(staffView.recipientAccesses[0].status).toBe('locked');
    const resent = await post(t, cookie.handler, `/requests/${n}/actions/resendRecipientAccess`, {});
    expect(resent.statusCode, resent.body).toBe(200);
    staffView = resent.json();
    expect(staffView.recipientAccesses.map((a: { status: string }) => a.status)).toEqual(['open', 'revoked']);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select('text')
      .where('request_number', '=', n)
      .orderBy('id')
      .execute();
    const newToken = /\/r\/([A-Za-z0-9_-]+)/.exec(mail.at(-2)?.text ?? '')?.[1] ?? '';
    const newPasscode = /is: ([A-Z0-9]{8})/.exec(mail.at(-1)?.text ?? '')?.[1] ?? '';
    expect((await enter(newToken, newPasscode)).res.statusCode).toBe(200);
    expect((await enter(token, passcode)).res.statusCode).toBe(400);
  });

  it('refuses an expired, a revoked access and one of a closed request', async () => {
    const expired = await issued();
    await sql`update recipient_accesses set expires_at = now() - interval '1 minute' where request_number = ${expired.n}`.execute(
      t.db,
    );
    expect((await enter(expired.token, expired.passcode)).res.json().fields.passcode).toBe(REFUSED);

    const revoked = await issued();
    const open = await enter(revoked.token, revoked.passcode);
    expect(open.res.statusCode).toBe(200);
    const staffView = (await get(t, cookie.handler, `/requests/${revoked.n}`)).json();
    const res = await post(t, cookie.handler, `/requests/${revoked.n}/actions/revokeRecipientAccess`, {
      accessId: staffView.recipientAccesses[0].accessId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await page(revoked.token, open.cookie)).json().state).toBe('passcode');
    expect((await answer(revoked.token, open.cookie, { kind: 'message', message: 'Hello' })).statusCode).toBe(
      403,
    );
    expect((await enter(revoked.token, revoked.passcode)).res.json().fields.passcode).toBe(REFUSED);

    const closed = await issued();
    const c = await enter(closed.token, closed.passcode);
    await sql`update requests set status = 'closed' where request_number = ${closed.n}`.execute(t.db);
    expect((await page(closed.token, c.cookie)).json().state).toBe('passcode');
    expect((await upload(closed.token, c.cookie, 'a.pdf')).statusCode).toBe(403);
  });

  it('ends the session after 30 idle minutes; caps what one link may upload', async () => {
    const { n, token, passcode } = await issued();
    const { cookie: c } = await enter(token, passcode);
    await sql`update recipient_sessions set last_seen_at = now() - interval '31 minutes'`.execute(t.db);
    expect((await page(token, c)).json().state).toBe('passcode');
    expect((await answer(token, c, { kind: 'message', message: 'Late' })).statusCode).toBe(403);

    const again = await enter(token, passcode);
    await sql`update recipient_accesses set uploaded_bytes = ${200 * 1_048_576 - 10} where request_number = ${n}`.execute(
      t.db,
    );
    const over = await upload(token, again.cookie, 'big.pdf');
    expect(over.statusCode).toBe(413);
    const files = await t.db
      .selectFrom('files')
      .select('key')
      .where('owner_id', '=', n)
      .where('name', '=', 'big.pdf')
      .execute();
    expect(files).toHaveLength(0);
  });

  it('a link of request A never opens request B, not even with A’s session', async () => {
    const a = await issued();
    const b = await issued();
    const sa = await enter(a.token, a.passcode);
    expect((await enter(b.token, a.passcode)).res.statusCode).toBe(400);
    expect((await page(b.token, sa.cookie)).json().state).toBe('passcode');
    expect((await answer(b.token, sa.cookie, { kind: 'message', message: 'x' })).statusCode).toBe(403);
    expect((await upload(b.token, sa.cookie, 'x.pdf')).statusCode).toBe(403);
  });
});

describe("the recipient's reads in the access log", () => {
  it('writes one entry for the page and one for its letter, shown on the Access tab as the recipient', async () => {
    const { n, token, passcode } = await issued();
    const { cookie: c } = await enter(token, passcode);
    await flushAccessLogs();
    const count = async () => {
      await flushAccessLogs();
      return t.db
        .selectFrom('access_log')
        .select(['what', 'via', 'recipient_access_id', 'user_id'])
        .where('request_number', '=', n)
        .execute();
    };
    const afterPasscode = await count();
    expect(afterPasscode).toHaveLength(1);
    expect(afterPasscode[0]).toMatchObject({ what: 'request', via: 'page', user_id: null });
    expect(afterPasscode[0]?.recipient_access_id).toBeTruthy();
    const view = (await page(token, c)).json();
    await t.app.inject({ url: `/r/${token}/files/${view.request.letter.key}`, headers: { cookie: c } });
    expect((await count()).map((e) => e.what).sort()).toEqual(['file', 'request', 'request']);
    // The link alone reads nothing, and writes nothing.
    await page(token);
    expect(await count()).toHaveLength(3);

    await createUser(t.db, { id: 'auditor', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    const admin = await signIn(t.app, 'auditor');
    const tab = await get(t, admin, `/requests/${n}/access`);
    expect(tab.statusCode).toBe(200);
    const whos = tab.json().entries.map((e: { who: string }) => e.who);
    expect(whos).toContain('The recipient, through the link sent to records@northside.example');
  });
});
