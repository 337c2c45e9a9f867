import { CONTROL_CHARACTER_MESSAGE } from '@dossier/core';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../src/files/storage.js';
import { enqueueMail } from '../src/mail/outbox.js';
import { createSmtpTransport } from '../src/mail/sender.js';
import { MailWorker } from '../src/mail/worker.js';
import { createTestContext, type TestContext, until } from './helpers.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { post } from './support/resultsInvoices.js';
import { type CaptureSmtp, startCaptureSmtp } from './support/smtp.js';

// Issue 32 item 6: what a user types adds no header and no recipient to a mail. The subject of an
// issued request is one line: a control character in it (CR LF first of all) is refused on the
// field and nothing is queued. Over real SMTP (a capturing server), neither a subject with other
// line separators nor a message kept in the outbox from before with CR LF in its subject reaches
// anyone but its addressee, or carries a header nobody meant.

let t: TestContext;
let handler: string;
let smtp: CaptureSmtp;
let worker: MailWorker;

const BODY = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please send the records.' }] }],
};

const issue = (n: string, subject: string) =>
  post(t, handler, `/requests/${n}/actions/issueRequest`, {
    issueRequestMethod: 'email',
    subject,
    body: BODY,
  });

/** The message received with this subject start, and the addresses SMTP delivered it to. */
async function receivedAs(start: string): Promise<{ mail: ParsedMail; to: string[] }> {
  await until(() => smtp.received.some((m) => (m.subject ?? '').startsWith(start)));
  const index = smtp.received.findIndex((m) => (m.subject ?? '').startsWith(start));
  return { mail: smtp.received[index] as ParsedMail, to: smtp.envelopes[index]?.to ?? [] };
}

function expectNoInjectedHeader(mail: ParsedMail) {
  expect(mail.headers.has('bcc')).toBe(false);
  expect(mail.headers.has('cc')).toBe(false);
  expect(mail.headers.has('x-evil')).toBe(false);
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.length : 0).toBe(1);
}

beforeAll(async () => {
  t = await createTestContext();
  ({ handler } = await createUsualPeople(t));
  smtp = await startCaptureSmtp();
  worker = new MailWorker(
    t.db,
    createSmtpTransport(smtp.url),
    'Dossier <no-reply@test.example>',
    console,
    createLocalStorage(t.config.files.dir),
  );
  await worker.start(t.url);
});
afterAll(async () => {
  await worker.stop();
  await smtp.close();
  await t.close();
});

describe('the subject of an issued request', () => {
  it('refuses line breaks on the field, and no user input adds a header or recipient over SMTP', async () => {
    const refused = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      recipient: { email: 'inject@northside.example' },
    });
    for (const subject of [
      'Records please\r\nBcc: thief@evil.example\r\nX-Evil: 1',
      'Records please\nBcc: thief@evil.example',
      'Records please\rBcc: thief@evil.example',
      'Records\tplease',
    ]) {
      const res = await issue(refused, subject);
      expect(res.statusCode, JSON.stringify(subject)).toBe(400);
      expect(res.json().fields).toEqual({ subject: CONTROL_CHARACTER_MESSAGE });
    }
    const queued = await t.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('request_number', '=', refused)
      .execute();
    expect(queued).toEqual([]);
    const row = await t.db
      .selectFrom('requests')
      .select('issued_at')
      .where('request_number', '=', refused)
      .executeTakeFirstOrThrow();
    expect(row.issued_at).toBeNull();

    // Line separators that are not control characters pass, and stay inside the subject.
    const unicode = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      recipient: { email: 'unicode@northside.example' },
    });
    const res = await issue(unicode, 'Unicode records\u2028Bcc: thief@evil.example\u0085X-Evil: 1');
    expect(res.statusCode, res.body).toBe(200);
    const first = await receivedAs('Unicode records');
    expect(first.to).toEqual(['unicode@northside.example']);
    expectNoInjectedHeader(first.mail);

    // A message kept in the outbox before the rule (CR LF in its subject): sent to its addressee only.
    await t.db.transaction().execute((trx) =>
      enqueueMail(trx, {
        to: 'kept@northside.example',
        subject: 'Kept records\r\nBcc: thief@evil.example\r\nX-Evil: 1',
        text: 'Please send the records.',
      }),
    );
    const kept = await receivedAs('Kept records');
    expect(kept.to).toEqual(['kept@northside.example']);
    expectNoInjectedHeader(kept.mail);
    expect(smtp.envelopes.flatMap((e) => e.to)).not.toContain('thief@evil.example');
  });
});
