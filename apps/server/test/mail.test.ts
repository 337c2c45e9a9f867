import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/mail/outbox.js';
import { createSmtpTransport } from '../src/mail/sender.js';
import { MailWorker } from '../src/mail/worker.js';
import { createTestContext, type TestContext, until } from './helpers.js';

// The outbox and its sender against a real SMTP server on loopback: delivered once, kept through an
// outage, refused addresses marked failed.

let t: TestContext;
let port = 0;
const received: { to: string; subject: string }[] = [];

function startSmtp(): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('nobody@'))
        return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then((mail) => {
        const to = Array.isArray(mail.to) ? mail.to[0]!.text : (mail.to?.text ?? '');
        received.push({ to, subject: mail.subject ?? '' });
        callback();
      }, callback);
    },
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => {
      port = (server.server.address() as AddressInfo).port;
      resolve(server);
    }),
  );
}

const row = (subject: string) =>
  t.db.selectFrom('mail_outbox').selectAll().where('subject', '=', subject).executeTakeFirstOrThrow();

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('mail out', () => {
  it('delivers each committed message once, with two senders running, and survives an outage', async () => {
    let smtp = await startSmtp();
    const url = `smtp://127.0.0.1:${port}`;
    const workers = [0, 1].map(
      () => new MailWorker(t.db, createSmtpTransport(url), 'Dossier <no-reply@test.example>', console),
    );
    for (const w of workers) await w.start(t.url);
    try {
      for (let i = 0; i < 6; i++) {
        await t.db
          .transaction()
          .execute((trx) =>
            enqueueMail(trx, { to: `person${i}@test.example`, subject: `hello ${i}`, text: 'hi' }),
          );
      }
      await until(() => received.length >= 6);
      await new Promise((r) => setTimeout(r, 300));
      expect(received.map((m) => m.subject).sort()).toEqual(
        Array.from({ length: 6 }, (_, i) => `hello ${i}`),
      );
      expect((await row('hello 0')).message_id).toMatch(/@/);

      // The SMTP server goes away: the message waits in the outbox with the error.
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await t.db
        .transaction()
        .execute((trx) =>
          enqueueMail(trx, { to: 'later@test.example', subject: 'during outage', text: 'x' }),
        );
      await until(async () => (await row('during outage')).attempts > 0);
      const waiting = await row('during outage');
      expect(waiting.sent_at).toBeNull();
      expect(waiting.last_error).toBeTruthy();

      // It comes back: the message goes out (the retry is brought forward instead of waiting 30 s).
      smtp = await startSmtp();
      await t.db
        .updateTable('mail_outbox')
        .set({ next_attempt_at: new Date() })
        .where('id', '=', waiting.id)
        .execute();
      workers[0]!.kick();
      await until(() => received.some((m) => m.subject === 'during outage'));
      // The server has the message before the sender records it as sent: wait for the record.
      await until(async () => (await row('during outage')).sent_at !== null);
      expect((await row('during outage')).sent_at).not.toBeNull();

      // A refused address will not get better: failed at once, kept for administrators.
      await t.db
        .transaction()
        .execute((trx) => enqueueMail(trx, { to: 'nobody@test.example', subject: 'refused', text: 'x' }));
      await until(async () => (await row('refused')).failed_at !== null);
      expect((await row('refused')).last_error).toContain('No such user');
    } finally {
      for (const w of workers) await w.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
