import { beforeAll, describe, expect, it } from 'vitest';
import { storageFromConfig } from '../src/files/fromConfig.js';
import { sendDueMail } from '../src/mail/sender.js';
import type { TestContext } from './helpers.js';
import { XHR } from './helpers.js';
import { pdfText } from './support/pdf.js';
import { cookie, enter, issued, REFUSED, useRecipientWorld, world } from './support/recipientWorld.js';
import { get, post } from './support/resultsInvoices.js';

// Issue 34: Re-send goes the way the request was last issued. By fax or post it is a new letter
// with the new link and passcode printed (as issuing prints them); the old link stops working; the
// record of the letter and the outbox keep no passcode once the fax went out.

useRecipientWorld();
let t: TestContext;
beforeAll(() => {
  t = world.t;
});

const FAX = { fax: '02 9000 0001' };
const LINK = /\/r\/([A-Za-z0-9_-]+)/;

async function resend(n: string) {
  const res = await post(t, cookie.handler, `/requests/${n}/actions/resendRecipientAccess`, {});
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

async function newestLetter(n: string) {
  return t.db
    .selectFrom('correspondence')
    .select(['subject', 'body', 'attachments', 'issue_request_method', 'message_delivery_status'])
    .where('request_number', '=', n)
    .where('kind', '=', 'issuedRequest')
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
}

async function printed(key: string) {
  const pdf = await t.app.inject({ url: `/files/${key}`, headers: { ...XHR, cookie: cookie.handler } });
  expect(pdf.statusCode).toBe(200);
  const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
  return {
    token: LINK.exec(text)?.[1] ?? '',
    passcode: /passcode ([A-Z0-9]{8})/.exec(text)?.[1] ?? '',
  };
}

describe('Re-send of a request issued by fax or post', () => {
  it('faxes a new letter with the new link and passcode; the old link stops working', async () => {
    const { n, token: oldToken } = await issued('faxNumber', FAX);
    const view = await resend(n);
    expect(
      view.recipientAccesses.map((a: { status: string; method: string }) => [a.method, a.status]),
    ).toEqual([
      ['faxNumber', 'open'],
      ['faxNumber', 'revoked'],
    ]);
    const mails = await t.db
      .selectFrom('mail_outbox')
      .select(['to', 'subject', 'text'])
      .where('request_number', '=', n)
      .orderBy('id')
      .execute();
    // The issue's fax and the re-sent one, both to the gateway; no email to the recipient.
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['0290000001@fax.invalid', 'Request for records'],
      ['0290000001@fax.invalid', `Answer request ${n} online`],
    ]);
    const letter = await newestLetter(n);
    expect(letter.issue_request_method).toBe('faxNumber');
    const { token, passcode } = await printed(letter.attachments[0]?.key ?? '');
    expect(token).not.toBe(oldToken);
    expect(mails[1]?.text).toContain(`/r/${token}`);
    expect(mails[1]?.text).toContain(passcode);
    // The record, which the sender side reads, has no passcode.
    expect(JSON.stringify(letter.body)).not.toContain(passcode);
    expect((await enter(oldToken, passcode)).res.json().fields.passcode).toBe(REFUSED);
    expect((await enter(token, passcode)).res.statusCode).toBe(200);
    // Once the fax went out, the outbox keeps its text without the passcode.
    const transport = { send: async () => '<fax@test.example>', close: () => undefined };
    await sendDueMail(t.db, transport, 'Dossier <no-reply@test.example>', 500, storageFromConfig(t.config));
    const sent = await t.db
      .selectFrom('mail_outbox')
      .select(['text', 'sent_at'])
      .where('request_number', '=', n)
      .execute();
    expect(sent.every((m) => m.sent_at !== null && !m.text.includes(passcode))).toBe(true);
  });

  it('prints a new letter by post, waiting to be printed, that the sender side cannot open', async () => {
    const { n } = await issued('postal');
    await resend(n);
    const letter = await newestLetter(n);
    expect(letter.message_delivery_status).toBe('printReady');
    expect(letter.subject).toBe(`Answer request ${n} online`);
    const key = letter.attachments[0]?.key ?? '';
    const { token, passcode } = await printed(key);
    expect((await enter(token, passcode)).res.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('mail_outbox').select('id').where('request_number', '=', n).execute(),
    ).toEqual([]);
    const bySender = await t.app.inject({
      url: `/files/${key}`,
      headers: { ...XHR, cookie: cookie.submitter },
    });
    expect(bySender.statusCode).toBe(403);
    const history = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(JSON.stringify(history)).toContain("Re-sent the recipient's link and passcode by post");
  });

  it('is refused, and sends nothing, when the recipient has lost its fax number', async () => {
    const { n } = await issued('faxNumber', FAX);
    await t.db
      .updateTable('requests')
      .set({
        recipient: JSON.stringify({ name: 'Northside Medical Centre', email: 'records@northside.example' }),
      })
      .where('request_number', '=', n)
      .execute();
    const res = await post(t, cookie.handler, `/requests/${n}/actions/resendRecipientAccess`, {});
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('The recipient has no fax number.');
    const accesses = await t.db
      .selectFrom('recipient_accesses')
      .select('revoked_at')
      .where('request_number', '=', n)
      .execute();
    expect(accesses.map((a) => a.revoked_at)).toEqual([null]);
  });
});
