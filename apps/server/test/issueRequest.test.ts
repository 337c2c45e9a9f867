import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { invalidateConfigurationCache } from '../src/features/configuration/effective.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createSmtpTransport } from '../src/mail/sender.js';
import { MailWorker } from '../src/mail/worker.js';
import { createTestContext, type TestContext, until } from './helpers.js';
import { insertIssueRequestTemplates } from './support/issueRequestTemplates.js';
import { pdfText } from './support/pdf.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, uploadPdf } from './support/resultsInvoices.js';

// issueRequest: really sent by email (letter PDF and authority attached, through the outbox
// and a real SMTP server), by fax through the gateway address, by post as a printable letter; the
// recipient must have what the method needs; once only; handlers only; templates rendered with the
// request's data.

let t: TestContext;
let handler: string;
let submitter: string;
let globex: string;

const BODY = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please send the records of Jane.' }] }],
};

const issue = (n: string, payload: Record<string, unknown>, cookie = handler) =>
  post(t, cookie, `/requests/${n}/actions/issueRequest`, {
    issueRequestMethod: 'email',
    subject: 'Request for records',
    body: BODY,
    ...payload,
  });

const requestRow = (n: string) =>
  t.db.selectFrom('requests').selectAll().where('request_number', '=', n).executeTakeFirstOrThrow();
const correspondenceOf = (n: string) =>
  t.db.selectFrom('correspondence').selectAll().where('request_number', '=', n).execute();

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, submitter, globex } = await createUsualPeople(t));
  await insertIssueRequestTemplates(t.db);
  // Signing in read the configuration (the second factors a scope requires) before these rows were
  // written past the app: forget what it kept.
  invalidateConfigurationCache(t.db);
});
afterAll(() => t.close());

/** A request whose applicant carries an uploaded authority file of the request. */
async function requestWithAuthority(recipient: Record<string, unknown> = {}) {
  const key = await uploadPdf(t, handler, 'authority.pdf');
  const n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    applicant: { authority: { key, name: 'authority.pdf' } },
    recipient,
    submittedBy: 'submitter',
  });
  await t.db
    .updateTable('files')
    .set({ owner_type: 'request', owner_id: n })
    .where('key', '=', key)
    .execute();
  await t.db
    .insertInto('tasks')
    .values({ type: 'issueRequest', subject: 'Issue Request', request_number: n, scope: '/org/acme/' })
    .execute();
  return { n, authorityKey: key };
}

describe('issueRequest by email', () => {
  it('queues the mail with the letter and the authority, records it and opens the request', async () => {
    const { n, authorityKey } = await requestWithAuthority();
    const res = await issue(n, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().tasksCompleted).toBe(1);

    const mail = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to', '=', 'records@northside.example')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toBe('Request for records');
    expect(mail.text).toContain('Please send the records of Jane.');
    expect(mail.html).toContain('<p>Please send the records of Jane.</p>');
    expect(mail.message_id).toMatch(/^<.+@.+>$/);
    const attachments = mail.attachments as { fileKey: string; name: string; contentType: string }[];
    expect(attachments.map((a) => [a.name, a.contentType])).toEqual([
      [`Request ${n}.pdf`, 'application/pdf'],
      ['authority.pdf', 'application/pdf'],
    ]);
    expect(attachments[1]?.fileKey).toBe(authorityKey);

    // The letter is a real PDF, a file of the request the handler can download.
    const letter = await get(t, handler, `/files/${attachments[0]!.fileKey}`);
    expect(letter.statusCode).toBe(200);
    expect(letter.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const [entry] = await correspondenceOf(n);
    assert(entry);
    expect(entry).toMatchObject({
      kind: 'issuedRequest',
      issue_request_method: 'email',
      subject: 'Request for records',
      mail_outbox_id: mail.id,
      message_id: mail.message_id,
      message_delivery_status: 'queued',
    });
    expect(entry.to_address).toMatchObject({ email: 'records@northside.example' });

    const row = await requestRow(n);
    expect(row.status).toBe('open');
    expect(row.issue_method).toBe('email');
    expect(row.issued_at).not.toBeNull();
    const notification = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', 'submitter')
      .where('target', '=', `/requests/${n}`)
      .executeTakeFirstOrThrow();
    expect([notification.type, notification.text]).toEqual([
      'requestIssued',
      `Request ${n} has been issued to Northside Medical Centre.`,
    ]);
    const task = await t.db
      .selectFrom('tasks')
      .selectAll()
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(task.completed_by).toBe('handler');
    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('aggregate_id', '=', n)
      .where('type', '=', 'request.issued')
      .executeTakeFirstOrThrow();
    expect((event.payload as { summary: string }).summary).toBe(
      'Issued the request to Northside Medical Centre by email (records@northside.example).',
    );

    // The request page lists it, newest first, with its delivery status and attachments.
    const view = await get(t, handler, `/requests/${n}`);
    const item = view.json().correspondence[0];
    expect(item).toMatchObject({
      kind: 'issuedRequest',
      issueRequestMethod: 'email',
      messageDeliveryStatus: 'queued',
      isEditable: false,
      isEmailCorrespondence: true,
      createdByDisplayName: 'User handler',
    });
    expect(item.attachments.map((a: { name: string }) => a.name)).toEqual([
      `Request ${n}.pdf`,
      'authority.pdf',
    ]);
    expect(view.json().actions).not.toContain('issueRequest');

    // Once only.
    const again = await issue(n, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The request has already been issued.');
  });

  it('refuses a recipient without an email address, and a missing subject or body; nothing changes', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', recipient: { email: null } });
    const res = await issue(n, { subject: ' ', body: { type: 'doc', content: [] } });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({ subject: 'The subject is required.' });
    const noEmail = await issue(n, { body: { type: 'doc', content: [] } });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().fields).toEqual({
      issueRequestMethod: 'The recipient has no email address.',
      body: 'The message body is required.',
    });
    const noBody = await issue(n, { issueRequestMethod: 'postal', body: undefined });
    expect(noBody.json().fields).toEqual({ body: 'The message body is required.' });
    const badMethod = await issue(n, { issueRequestMethod: 'pigeon' });
    expect(badMethod.json().fields.issueRequestMethod).toBe('Choose how to issue the request.');
    expect((await requestRow(n)).status).toBe('submitted');
    expect(await correspondenceOf(n)).toHaveLength(0);
    const files = await t.db.selectFrom('files').select('key').where('owner_id', '=', n).execute();
    expect(files).toHaveLength(0);
  });

  it('is refused to submitters and to another organisation, and on a closed request', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    expect((await issue(n, {}, submitter)).statusCode).toBe(403);
    expect((await issue(n, {}, globex)).statusCode).toBe(403);
    const closed = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'closed' });
    expect((await issue(closed, {})).statusCode).toBe(409);
    expect(await correspondenceOf(n)).toHaveLength(0);
  });
});

describe('the request letter', () => {
  it('asks what the request asks: every answer, field, field set value and additional question', async () => {
    const answer = (id: string, values: Record<string, unknown>) => ({
      id,
      smartFormAnswers: {},
      excludedQuestions: [],
      submitterSuppliedFields: {},
      fieldSets: {},
      files: [],
      ...values,
    });
    const n = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      content: {
        itemTypes: [
          answer('itemGp', {
            smartFormAnswers: { notes: 'yes', period: 'period:last5Years', doctor: 'Dr Hidden' },
            excludedQuestions: ['doctor'],
            submitterSuppliedFields: { patientId: 'P-1234' },
          }),
          answer('itemDischarge', { fieldSets: { 'admission.ward': 'Ward 7B' } }),
        ],
        additionalQuestions: [{ text: 'Please include imaging reports.' }],
        additionalInstructions: 'Please send the records electronically.',
      },
    });
    expect((await issue(n, { issueRequestMethod: 'postal' })).statusCode).toBe(200);
    const [entry] = await correspondenceOf(n);
    assert(entry);
    const [letter] = entry.attachments as { key: string }[];
    assert(letter);
    const text = (await pdfText((await get(t, handler, `/files/${letter.key}`)).rawPayload)).replace(
      /[ \t]+/g,
      ' ',
    );
    for (const expected of [
      'General practice records',
      '1. Include consultation notes?',
      'Yes',
      '2. Period of records',
      'Last 5 years',
      'Practice patient ID',
      'P-1234',
      'Discharge summary',
      'Admission',
      'Ward',
      'Ward 7B',
      'Additional questions',
      '1. Please include imaging reports.',
      'Additional instructions',
      'Please send the records electronically.',
    ])
      expect(text).toContain(expected);
    // An excluded question is not asked of the recipient, and stored option ids are not shown.
    expect(text).not.toContain('treating doctor');
    expect(text).not.toContain('period:last5Years');

    // The request page sends the item types that make the stored answers readable.
    const view = (await get(t, handler, `/requests/${n}`)).json();
    expect(view.contentItemTypes.map((i: { id: string }) => i.id).sort()).toEqual([
      'itemDischarge',
      'itemGp',
    ]);
    const gp = view.contentItemTypes.find((i: { id: string }) => i.id === 'itemGp');
    expect(gp.smartForm[1].options).toHaveLength(2);
    expect(gp.smartForm[1].options).toContainEqual({ id: 'period:last5Years', name: 'Last 5 years' });
  });
});

describe('issueRequest by fax and by post', () => {
  it('mails a fax to the gateway with the fax digits, never to the phone', async () => {
    const withFax = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      recipient: { fax: '+61 2 9000 1111' },
    });
    expect((await issue(withFax, { issueRequestMethod: 'faxNumber' })).statusCode).toBe(200);
    const phoneOnly = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const refused = await issue(phoneOnly, { issueRequestMethod: 'faxNumber' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields).toEqual({ issueRequestMethod: 'The recipient has no fax number.' });
    const sent = await t.db
      .selectFrom('mail_outbox')
      .select('to')
      .where('to', 'like', '%@fax.invalid')
      .orderBy('id')
      .execute();
    expect(sent.map((m) => m.to)).toEqual(['61290001111@fax.invalid']);
    const [entry] = await correspondenceOf(withFax);
    assert(entry);
    expect(entry.to_address).toMatchObject({ phone: '+61 2 9000 1111' });
    expect((await requestRow(withFax)).issue_method).toBe('faxNumber');

    const noNumber = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      recipient: { phone: '', fax: null },
    });
    const res = await issue(noNumber, { issueRequestMethod: 'faxNumber' });
    expect(res.json().fields).toEqual({ issueRequestMethod: 'The recipient has no fax number.' });
  });

  it('stores a printable letter for post and sends nothing', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const before = await t.db.selectFrom('mail_outbox').select('id').execute();
    expect((await issue(n, { issueRequestMethod: 'postal' })).statusCode).toBe(200);
    expect(await t.db.selectFrom('mail_outbox').select('id').execute()).toHaveLength(before.length);
    const [entry] = await correspondenceOf(n);
    assert(entry);
    expect(entry.message_delivery_status).toBe('printReady');
    expect(entry.mail_outbox_id).toBeNull();
    const [letter] = entry.attachments as { key: string }[];
    assert(letter);
    const pdf = await get(t, handler, `/files/${letter.key}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    // Printed with the recipient's passcode (issue 34): not the sender side's to read.
    expect((await get(t, submitter, `/files/${letter.key}`)).statusCode).toBe(403);
    expect((await get(t, globex, `/files/${letter.key}`)).statusCode).toBe(403);

    const noAddress = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      recipient: { postalAddress: null },
    });
    const res = await issue(noAddress, { issueRequestMethod: 'postal' });
    expect(res.json().fields).toEqual({ issueRequestMethod: 'The recipient has no postal address.' });
  });
});

describe('FAX_GATEWAY_ADDRESS', () => {
  it('defaults to {number}@fax.invalid and must hold {number} before the @', () => {
    expect(loadConfig({}).mail.faxGatewayAddress).toBe('{number}@fax.invalid');
    expect(loadConfig({ FAX_GATEWAY_ADDRESS: 'fax+{number}@gateway.example' }).mail.faxGatewayAddress).toBe(
      'fax+{number}@gateway.example',
    );
    expect(() => loadConfig({ FAX_GATEWAY_ADDRESS: 'fax@gateway.example' })).toThrow(ConfigError);
    expect(() => loadConfig({ FAX_GATEWAY_ADDRESS: 'gateway.example/{number}' })).toThrow(ConfigError);
  });
});

describe('issueRequest templates', () => {
  it('lists the issueRequest templates of the scope and renders one with the request data', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const list = await get(t, handler, `/requests/${n}/actions/issueRequest/templates`);
    expect(list.statusCode).toBe(200);
    expect(list.json().templates).toEqual([
      { templateId: 'tplRecords', name: 'Records request', isDefault: true },
    ]);
    const one = await get(t, handler, `/requests/${n}/actions/issueRequest/templates/tplRecords`);
    expect(one.statusCode).toBe(200);
    expect(one.json().subject).toBe(`Records for Jane Citizen (${n})`);
    expect(one.json().body.content[0].content[0].text).toBe(
      'Dear Northside Medical Centre, born 1 Apr 1980.',
    );
    expect((await get(t, handler, `/requests/${n}/actions/issueRequest/templates/tplOther`)).statusCode).toBe(
      404,
    );
    expect((await get(t, submitter, `/requests/${n}/actions/issueRequest/templates`)).statusCode).toBe(403);
    expect(
      (await get(t, globex, `/requests/${n}/actions/issueRequest/templates/tplRecords`)).statusCode,
    ).toBe(403);
  });
});

describe('the subject of an issued request', () => {
  it('starts from the template even when the template has no subject of its own', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const setSubject = async (subject: string) => {
      await sql`update configuration_entries set data = jsonb_set(data, '{subject}', ${JSON.stringify(subject)}::jsonb)
                where configuration_id = 'cfgAcme' and id = 'tplRecords'`.execute(t.db);
      invalidateConfigurationCache(t.db);
    };
    await setSubject('');
    try {
      const one = await get(t, handler, `/requests/${n}/actions/issueRequest/templates/tplRecords`);
      expect(one.statusCode).toBe(200);
      expect(one.json().subject).toBe(`Records request: request ${n} for Jane Citizen`);
    } finally {
      await setSubject('Records for ${request.applicant.name} (${request.requestNumber})');
    }
  });
});

describe('delivery', () => {
  it('sends the issued request through SMTP with its PDF and marks the correspondence sent', async () => {
    const received: ParsedMail[] = [];
    const recipients: string[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, callback) {
        recipients.push(address.address);
        if (address.address.startsWith('nobody@'))
          return callback(Object.assign(new Error('No such user'), { responseCode: 550 }));
        callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    const port = (smtp.server.address() as AddressInfo).port;
    const worker = new MailWorker(
      t.db,
      createSmtpTransport(`smtp://127.0.0.1:${port}`),
      'Dossier <no-reply@test.example>',
      console,
      createLocalStorage(t.config.files.dir),
    );
    try {
      const { n } = await requestWithAuthority({ email: 'deliver@northside.example' });
      expect((await issue(n, { subject: 'Deliver me' })).statusCode).toBe(200);
      await worker.start(t.url);
      await until(() => received.some((m) => m.subject === 'Deliver me'));
      const mail = received.find((m) => m.subject === 'Deliver me') as ParsedMail;
      expect(mail.attachments.map((a) => a.filename)).toEqual([`Request ${n}.pdf`, 'authority.pdf']);
      expect(mail.attachments[0]?.content.subarray(0, 5).toString()).toBe('%PDF-');
      const [entry] = await correspondenceOf(n);
      assert(entry);
      expect(mail.messageId).toBe(entry.message_id);
      await until(async () => (await correspondenceOf(n))[0]?.message_delivery_status === 'sent');
      expect((await correspondenceOf(n))[0]?.message_delivery_status).toBe('sent');

      // CR LF in the subject is refused on the field; mailHeaderInjection.test.ts proves over SMTP
      // that no user input adds a header or recipient.

      // A mailbox the server refuses for good: the correspondence shows the failure.
      const refused = await insertTestRequest(t.db, {
        scope: '/org/acme/',
        recipient: { email: 'nobody@northside.example' },
      });
      expect((await issue(refused, { subject: 'Refused' })).statusCode).toBe(200);
      await until(async () => (await correspondenceOf(refused))[0]?.message_delivery_status === 'failed');
      expect((await correspondenceOf(refused))[0]?.message_delivery_status).toBe('failed');
      const view = await get(t, handler, `/requests/${refused}`);
      expect(view.json().correspondence[0].messageDeliveryStatus).toBe('failed');
    } finally {
      await worker.stop();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
