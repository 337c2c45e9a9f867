import fs from 'node:fs';
import path from 'node:path';
import { DE_IDENTIFIED } from '@dossier/core';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushAccessLogs } from '../src/audit/accessLog.js';
import { insertCorrespondence } from '../src/features/correspondence/index.js';
import { runRetention } from '../src/features/retention/index.js';
import { createLocalStorage } from '../src/files/storage.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { mail, receiveInto } from './support/mail.js';
import { insertTestRequest } from './support/requests.js';
import { monthsAgo, requestFile, setRetention } from './support/retention.js';

// Mail received for a request (issue 36): the message's body, subject and names in the inbox and
// in the request's correspondence, its raw .eml and attachments, and what the recipient sent on the
// recipient's page go with the applicant when retention or an erasure de-identifies the request.
// The strongest check: afterwards no row of any table, and no stored file, names the applicant or
// gives their date of birth.

let t: TestContext;
const cookies: Record<string, string> = {};
const acme = '/org/acme/';
const erased = { name: 'Quentin Zubrowski', dateOfBirth: '1961-07-14', reference1: 'ZUB-41' };
const retained = { name: 'Philippa Vandermolen', dateOfBirth: '1958-11-23', reference1: 'VDM-9' };
const n = { erased: '', retained: '' };
const ctx = () => ({ db: t.db, storage: createLocalStorage(t.config.files.dir) });

const onDisk = (key: string) => path.join(t.config.files.dir, key.slice(0, 2), key.slice(2, 4), key);
const PDF = (who: string) => Buffer.from(`%PDF-1.4\n% Records of ${who}\n%%EOF\n`);

/** Mail from the clinic about the request, naming the person, with a PDF attachment. */
async function mailFor(requestNumber: string, who: { name: string; dateOfBirth: string }) {
  const [y, m, d] = who.dateOfBirth.split('-');
  const received = await receiveInto(
    t,
    mail(
      {
        From: `${who.name} <${who.name.split(' ')[1]?.toLowerCase()}@home.example>`,
        To: 'records@dossier.example',
        Subject: `Records of ${who.name.toUpperCase()} (${requestNumber})`,
        'Message-ID': `<${requestNumber}@clinic.example>`,
      },
      `Dear team,\r\nattached are the records of ${who.name}, born ${d}/${m}/${y} (${who.dateOfBirth}).\r\n`,
      { name: `${who.name}.pdf`, type: 'application/pdf', bytes: PDF(who.name) },
    ),
    monthsAgo(40),
  );
  return received;
}

/** What the recipient sent on the recipient's page: a message and a file of the request. */
async function recipientPageAnswer(requestNumber: string, who: { name: string }) {
  const key = await requestFile(t, cookies.handler as string, requestNumber, `${who.name} records.pdf`);
  await insertCorrespondence(t.db, {
    requestNumber,
    kind: 'message',
    from: { displayName: 'Northside Medical Centre', email: 'records@northside.example' },
    to: null,
    subject: "Records (via the recipient's page)",
    body: { type: 'text', content: `These are all the records.\n\nHere are ${who.name}'s films.` },
    attachments: [{ key, name: `${who.name} records.pdf`, contentType: 'application/pdf' }],
    createdBy: null,
    viaRecipientPage: true,
  });
}

/** A note and a letter that went out, quoting the name in capitals and the date of birth. */
async function quotesOf(requestNumber: string, who: { name: string; dateOfBirth: string }) {
  const [y, m, d] = who.dateOfBirth.split('-');
  const month = new Date(`${who.dateOfBirth}T00:00:00Z`).toLocaleString('en-AU', {
    month: 'long',
    timeZone: 'UTC',
  });
  await insertCorrespondence(t.db, {
    requestNumber,
    kind: 'note',
    subject: null,
    body: { type: 'text', content: `Called ${who.name.toUpperCase()} (born ${d}/${m}/${y}).` },
    attachments: [],
    createdBy: 'handler',
  });
  await t.db
    .insertInto('notifications')
    .values({
      user_id: 'handler',
      type: 'requestClosed',
      target: `/requests/${requestNumber}`,
      text: `Request ${requestNumber} has been closed: all of ${who.name}'s records are in.`,
      created_by: null,
    })
    .execute();
  await t.db
    .insertInto('mail_outbox')
    .values({
      to: 'records@northside.example',
      subject: `Request ${requestNumber}: ${who.name}`,
      text: `Please send the records of ${who.name}, born ${Number(d)} ${month} ${y}.`,
      html: null,
      next_attempt_at: monthsAgo(41),
      created_at: monthsAgo(41),
      sent_at: monthsAgo(41),
      request_number: requestNumber,
    })
    .execute();
}

/** Every row of every table (partitions through their parent) whose text holds the needle. */
async function rowsHolding(needle: string): Promise<string[]> {
  const tables = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace s on s.oid = c.relnamespace
    where s.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition`.execute(t.db);
  const found: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`
      select x::text as row from ${sql.table(name)} x where strpos(lower(x::text), ${needle.toLowerCase()}) > 0
    `.execute(t.db);
    for (const r of rows.rows) found.push(`${name}: ${r.row.slice(0, 300)}`);
  }
  return found;
}

/** The stored files of this database whose bytes hold the needle. */
async function storedFilesHolding(needle: string): Promise<string[]> {
  const keys = await t.db.selectFrom('files').select(['key', 'name']).execute();
  return keys
    .filter((f) => fs.existsSync(onDisk(f.key)))
    .filter((f) =>
      fs.readFileSync(onDisk(f.key)).toString('latin1').toLowerCase().includes(needle.toLowerCase()),
    )
    .map((f) => `${f.key} (${f.name})`);
}

/** What a person leaves: the parts of their name, the date of birth in the forms mail writes it. */
function tracesOf(who: { name: string; dateOfBirth: string; reference1: string }) {
  const [y, m, d] = who.dateOfBirth.split('-');
  return [...who.name.split(' '), who.dateOfBirth, `${d}/${m}/${y}`, who.reference1];
}

async function expectNoTraces(who: { name: string; dateOfBirth: string; reference1: string }) {
  for (const trace of tracesOf(who)) {
    expect(await rowsHolding(trace), `rows holding ${trace}`).toEqual([]);
    expect(await storedFilesHolding(trace), `files holding ${trace}`).toEqual([]);
  }
}

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'acmeadmin', scope: acme, roles: [{ role: 'c:roles:admin', scope: acme }] });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  for (const who of ['acmeadmin', 'handler']) cookies[who] = await signIn(t.app, who);
  for (const [which, who] of [
    ['erased', erased],
    ['retained', retained],
  ] as const) {
    n[which] = await insertTestRequest(t.db, {
      scope: acme,
      status: 'closed',
      submittedAt: monthsAgo(42),
      closedAt: monthsAgo(36),
      applicant: who,
    });
    await mailFor(n[which], who);
    await recipientPageAnswer(n[which], who);
    await quotesOf(n[which], who);
  }
});
afterAll(() => t.close());

describe('mail received for a request', () => {
  it('is linked with its raw message and attachment, all naming the person (the setting holds)', async () => {
    for (const [which, who] of [
      ['erased', erased],
      ['retained', retained],
    ] as const) {
      const links = await t.db
        .selectFrom('inbox_message_links')
        .select('message_id')
        .where('request_number', '=', n[which])
        .execute();
      expect(links).toHaveLength(1);
      expect((await rowsHolding(who.name.split(' ')[1] as string)).length).toBeGreaterThan(3);
      expect((await storedFilesHolding(who.name.split(' ')[1] as string)).length).toBeGreaterThanOrEqual(3);
      expect(await storedFilesHolding(who.dateOfBirth)).toHaveLength(1);
    }
  });

  it('leaves no trace of the person after an erasure on request', async () => {
    // An administrator looked for the person in the Access Log report and exported it: the log,
    // which nothing may change, keeps that an applicant filter was given, not the name.
    const exported = await t.app.inject({
      method: 'GET',
      url: `/reports/access-log/filter?filter.applicant=${erased.name.split(' ')[1]}&export=csv`,
      headers: { ...XHR, cookie: cookies.acmeadmin as string },
    });
    expect(exported.statusCode, exported.body).toBe(200);
    await flushAccessLogs();
    const entry = await t.db
      .selectFrom('access_log')
      .select('detail')
      .where('what', '=', 'export')
      .executeTakeFirstOrThrow();
    expect(entry.detail).toMatchObject({ report: 'accessLog', filter: { applicant: 'given' } });
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/retention/erasure',
      headers: { ...XHR, cookie: cookies.acmeadmin as string },
      payload: { ...erased, requestedBy: 'The person, by letter', reason: 'Right to erasure' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().done.requestNumbers).toEqual([n.erased]);
    await expectNoTraces(erased);
    // Numbers and dates stay: the request, its messages, their dates.
    const messages = await t.db
      .selectFrom('correspondence')
      .select(['subject', 'body', 'created_at'])
      .where('request_number', '=', n.erased)
      .where('kind', '=', 'message')
      .execute();
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(JSON.stringify(m.body)).toContain(DE_IDENTIFIED);
    // The other person's mail is untouched.
    expect((await rowsHolding(retained.name)).length).toBeGreaterThan(3);
  });

  it('leaves no trace of the person after retention de-identifies the request, and again changes nothing', async () => {
    await setRetention(t, acme, { deleteFilesAfterMonths: 24, deIdentifyAfterMonths: 24 });
    // The preview counts the mail's raw message and attachment with the request's own file.
    const preview = await t.app.inject({
      method: 'GET',
      url: '/admin/retention',
      headers: { ...XHR, cookie: cookies.acmeadmin as string },
    });
    expect(preview.json().totals).toMatchObject({
      requestsWithFilesDue: 1,
      filesDue: 4,
      requestsToDeIdentify: 1,
    });
    const first = await runRetention(ctx(), { kind: 'manual', actor: 'acmeadmin', within: [acme] });
    expect(first.requestNumbers).toEqual([n.retained]);
    await expectNoTraces(retained);
    const again = await runRetention(ctx(), { kind: 'manual', actor: 'acmeadmin', within: [acme] });
    expect(again).toMatchObject({ filesRemoved: 0, deIdentified: 0, requestNumbers: [] });
  });
});
