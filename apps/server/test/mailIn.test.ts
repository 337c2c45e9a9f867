import { createRequestNumber } from '@dossier/core';
import nodemailer, { type SendMailOptions, type Transporter } from 'nodemailer';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { sendAutoReminder } from '../src/features/workflow/reminders.js';
import { createLocalStorage } from '../src/files/storage.js';
import { type SmtpListener, startSmtpListener } from '../src/mail/incoming/listener.js';
import { createSmtpTransport, sendDueMail } from '../src/mail/sender.js';
import { createTestContext, createUser, signIn, type TestContext, until, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { PDF } from './support/resultsInvoices.js';
import { smtpConversation, startCaptureSmtp } from './support/smtp.js';

/** The number with other check digits: one more never has the same remainder modulo 97. */
const forge = (n: string) => `${n.slice(0, -2)}${String((Number(n.slice(-2)) + 1) % 100).padStart(2, '0')}`;

// Mail in (issue 6): messages delivered over SMTP to the built-in listener are kept raw, parsed,
// matched to requests by a request number with valid check digits or by reply threading, and
// otherwise left in the inbox with a classifyIncomingMessage task. Malformed and oversized mail is
// kept and flagged; dangerous attachments are kept but blocked.

let t: TestContext;
let listener: SmtpListener;
let transport: Transporter;
let handler: string;
const INBOX = 'inbox@dossier.test';
const quiet = { info: () => undefined, warn: () => undefined };

beforeAll(async () => {
  t = await createTestContext();
  listener = await startSmtpListener(
    { db: t.db, storage: createLocalStorage(t.config.files.dir), live: t.live },
    { port: 0, host: '127.0.0.1', inboxAddress: INBOX, maxMessageBytes: 64 * 1024, keepBytes: 96 * 1024 },
    quiet,
  );
  transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: listener.port,
    secure: false,
    ignoreTLS: true,
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  handler = await signIn(t.app, 'handler');
});
afterAll(async () => {
  transport.close();
  await listener.close();
  await t.close();
});

const send = (mail: SendMailOptions) =>
  transport.sendMail({ from: 'Records Officer <records@northside.example>', to: INBOX, ...mail });

const messagesWith = (subject: string) =>
  t.db.selectFrom('inbox_messages').selectAll().where('subject', '=', subject).execute();

const correspondenceOf = (n: string) =>
  t.db
    .selectFrom('correspondence')
    .selectAll()
    .where('request_number', '=', n)
    .where('kind', '=', 'message')
    .execute();

const classifyTasks = (messageId: string) =>
  t.db.selectFrom('tasks').selectAll().where('message_id', '=', messageId).execute();

describe('mail in over SMTP', () => {
  it('links a message with a valid request number to its request as correspondence', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    await send({
      subject: `Records for ${n}`,
      text: 'Please find the records attached.',
      attachments: [{ filename: 'records.pdf', content: PDF, contentType: 'application/pdf' }],
    });
    const rows = await correspondenceOf(n);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: `Records for ${n}`, created_by: null });
    expect(rows[0]?.body).toEqual({ type: 'text', content: 'Please find the records attached.' });
    expect(rows[0]?.from_address).toMatchObject({
      email: 'records@northside.example',
      displayName: 'Records Officer',
    });
    const [attachment] = rows[0]!.attachments as { key: string; name: string }[];
    assert(attachment);
    expect(attachment.name).toBe('records.pdf');
    const file = await t.db
      .selectFrom('files')
      .selectAll()
      .where('key', '=', attachment.key)
      .executeTakeFirstOrThrow();
    expect(file).toMatchObject({ owner_type: 'request', owner_id: n });
    const download = await t.app.inject({ url: `/files/${attachment.key}`, headers: { cookie: handler } });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);

    const events = await t.db.selectFrom('events').selectAll().where('aggregate_id', '=', n).execute();
    expect(events.map((e) => e.type)).toContain('request.messageReceived');
    const [message] = await messagesWith(`Records for ${n}`);
    assert(message);
    expect(message.flag_reason).toBeNull();
    expect(await classifyTasks(message.id)).toHaveLength(0);
    const links = await t.db
      .selectFrom('inbox_message_links')
      .selectAll()
      .where('message_id', '=', message.id)
      .execute();
    expect(links.map((l) => l.request_number)).toEqual([n]);
    // The request page shows it as a linked message.
    const page = await t.app.inject({ url: `/requests/${n}`, headers: { ...XHR, cookie: handler } });
    expect(page.json().correspondence[0]).toMatchObject({ kind: 'message', isLinkedToMessage: true });
  });

  it('does not link a forged request number: the message waits in the inbox with a task', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const forged = forge(n);
    await send({ subject: `About ${forged}`, text: `Our reference ${forged}.` });
    const [message] = await messagesWith(`About ${forged}`);
    assert(message);
    expect(message).toBeDefined();
    expect(await correspondenceOf(n)).toHaveLength(0);
    const tasks = await classifyTasks(message.id);
    expect(tasks).toMatchObject([
      { type: 'classifyIncomingMessage', request_number: null, completed_at: null },
    ]);
    expect(tasks[0]!.due_at).not.toBeNull();
  });

  it('links a reply to mail we sent by its threading headers', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const sentId = `<sent-${Date.now()}@dossier.localhost>`;
    await t.db
      .insertInto('correspondence')
      .values({
        request_number: n,
        kind: 'issuedRequest',
        body: JSON.stringify({ type: 'text', content: 'letter' }),
        message_id: sentId,
        mail_outbox_id: '1',
        issue_request_method: 'email',
      })
      .execute();
    await send({
      subject: 'Re: your request',
      text: 'We will reply next week.',
      inReplyTo: sentId,
      references: [sentId],
    });
    const rows = await correspondenceOf(n);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.subject).toBe('Re: your request');
  });

  it('keeps a malformed message raw and flagged', async () => {
    const before = await t.db.selectFrom('inbox_messages').select('id').execute();
    await transport.sendMail({
      envelope: { from: 'someone@example.org', to: [INBOX] },
      raw: 'this is not a mail message\r\nno headers at all\r\n',
    });
    const rows = await t.db
      .selectFrom('inbox_messages')
      .selectAll()
      .where(
        'id',
        'not in',
        before.map((r) => r.id),
      )
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.flag_reason).toMatch(/no (headers|valid sender)/);
    const raw = await t.app.inject({ url: `/files/${rows[0]!.raw_file_key}`, headers: { cookie: handler } });
    expect(raw.statusCode).toBe(200);
    expect(raw.body).toContain('this is not a mail message');
    expect(await classifyTasks(rows[0]!.id)).toHaveLength(1);
  });

  it('keeps an oversized message raw and flagged, unread, even with a valid number', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    await send({ subject: `Big ${n}`, text: 'x'.repeat(80 * 1024) });
    await until(
      async () =>
        (
          await t.db
            .selectFrom('inbox_messages')
            .select('id')
            .where('raw_size', '>', String(64 * 1024))
            .execute()
        ).length > 0,
    );
    const [row] = await t.db
      .selectFrom('inbox_messages')
      .selectAll()
      .where('raw_size', '>', String(64 * 1024))
      .execute();
    assert(row);
    expect(row.flag_reason).toMatch(/larger than the limit/);
    expect(row.subject).toBe('');
    expect(await correspondenceOf(n)).toHaveLength(0);
  });

  it('keeps a message whose relay announced a size above the limit (SIZE at MAIL FROM), flagged', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const subject = `Announced ${n}`;
    const message = [
      'From: relay@northside.example',
      `To: ${INBOX}`,
      `Subject: ${subject}`,
      '',
      ...Array.from({ length: 1200 }, () => 'x'.repeat(76)),
    ].join('\r\n');
    const replies = await smtpConversation(listener.port, [
      'EHLO relay.northside.example',
      `MAIL FROM:<relay@northside.example> SIZE=${message.length}`,
      `RCPT TO:<${INBOX}>`,
      'DATA',
      `${message}\r\n.`,
      'QUIT',
    ]);
    // SIZE is offered without a number, and the declared size refuses nothing.
    expect(replies[1]).toMatch(/^250[- ]SIZE$/m);
    expect(replies.slice(2, 6).map((r) => r.slice(0, 3))).toEqual(['250', '250', '354', '250']);
    const [row] = await t.db
      .selectFrom('inbox_messages')
      .selectAll()
      .where('raw_size', '>', String(64 * 1024))
      .where('from_email', '=', '')
      .orderBy('received_at', 'desc')
      .execute();
    expect(row?.flag_reason).toMatch(/larger than the limit/);
    const raw = await t.app.inject({ url: `/files/${row?.raw_file_key}`, headers: { cookie: handler } });
    expect(raw.body).toContain(subject);
    expect(await correspondenceOf(n)).toHaveLength(0);
    expect(await classifyTasks(row!.id)).toHaveLength(1);
  });

  it('links a reply to an autoReminder we sent to its request, by threading alone', async () => {
    const n = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      status: 'open',
      issuedAt: new Date('2026-03-02T00:00:00Z'),
    });
    const { id: followUp } = await t.db
      .insertInto('tasks')
      .values({
        type: 'followUp',
        subject: 'Follow Up: Jane Citizen',
        request_number: n,
        scope: '/org/acme/',
        due_at: new Date('2026-03-16T00:00:00Z'),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(
      await t.db.transaction().execute((trx) => sendAutoReminder(trx, followUp, new Date(), t.config)),
    ).toBe(true);
    // Sent for real to the recipient's (test) server, which shows the Message-ID it got.
    const outside = await startCaptureSmtp();
    const out = createSmtpTransport(outside.url);
    try {
      expect(await sendDueMail(t.db, out, 'Dossier <no-reply@dossier.test>')).toBeGreaterThan(0);
      const reminder = outside.received.find((m) => m.text?.includes(n));
      expect(reminder?.messageId).toBeDefined();
      // The reply names no request number: only its threading headers lead back.
      await send({
        subject: 'Re: your reminder',
        text: 'We posted the records yesterday.',
        inReplyTo: reminder?.messageId,
        references: [reminder?.messageId as string],
      });
      const rows = await correspondenceOf(n);
      expect(rows.map((r) => r.subject)).toEqual(['Re: your reminder']);
    } finally {
      out.close();
      await outside.close();
    }
  });

  it('keeps a dangerous attachment blocked: listed, never readable, never copied', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
    await send({
      subject: `Invoice ${n}`,
      text: 'See attached.',
      attachments: [
        { filename: 'invoice.exe', content: exe, contentType: 'application/octet-stream' },
        { filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' },
      ],
    });
    const [message] = await messagesWith(`Invoice ${n}`);
    assert(message);
    const stored = message.attachments as { key: string; name: string; blocked?: boolean }[];
    expect(stored.map((a) => [a.name, a.blocked ?? false])).toEqual([
      ['invoice.exe', true],
      ['invoice.pdf', false],
    ]);
    const blocked = await t.app.inject({ url: `/files/${stored[0]!.key}`, headers: { cookie: handler } });
    expect(blocked.statusCode).toBe(403);
    const [row] = await correspondenceOf(n);
    assert(row);
    const attachments = row.attachments as { key: string; name: string; blocked?: boolean }[];
    expect(attachments.find((a) => a.name === 'invoice.exe')).toMatchObject({
      blocked: true,
      key: stored[0]!.key,
    });
    expect(attachments.find((a) => a.name === 'invoice.pdf')?.key).not.toBe(stored[1]!.key);
    // The request page lists it as blocked, with why (issue 22 item 8).
    const page = await t.app.inject({ url: `/requests/${n}`, headers: { ...XHR, cookie: handler } });
    const item = page.json().correspondence.find((c: { kind: string }) => c.kind !== 'note');
    expect(item.attachments.find((a: { name: string }) => a.name === 'invoice.exe')).toMatchObject({
      blocked: true,
      blockedReason: 'Executable files are not allowed.',
    });
    expect(item.attachments.find((a: { name: string }) => a.name === 'invoice.pdf').blocked).toBeUndefined();
  });

  it('refuses mail for any other address', async () => {
    await expect(send({ to: 'someone-else@dossier.test', subject: 'Hello', text: 'x' })).rejects.toThrow(
      /550/,
    );
  });

  it('tells the sender to retry (451) when the message cannot be stored', async () => {
    const broken = await startSmtpListener(
      {
        db: t.db,
        storage: {
          write: async () => Promise.reject(new Error('disk full')),
          open: async () => Promise.reject(new Error('x')),
          remove: async () => undefined,
        },
        live: t.live,
      },
      { port: 0, host: '127.0.0.1', inboxAddress: INBOX, maxMessageBytes: 1024, keepBytes: 2048 },
      quiet,
    );
    const other = nodemailer.createTransport({
      host: '127.0.0.1',
      port: broken.port,
      secure: false,
      ignoreTLS: true,
    });
    try {
      await expect(
        other.sendMail({
          from: 'a@example.org',
          to: INBOX,
          subject: createRequestNumber('TST', new Date()),
          text: 'x',
        }),
      ).rejects.toThrow(/451/);
    } finally {
      other.close();
      await broken.close();
    }
  });
});
