import { createRequestNumber } from '@dossier/core';
import pg from 'pg';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext, XHR } from './helpers.js';
import { createInboxPeople, mail, receiveInto } from './support/mail.js';
import { insertTestRequest } from './support/requests.js';
import { get, PDF, post } from './support/resultsInvoices.js';

/** The number with other check digits: one more never has the same remainder modulo 97. */
const forge = (n: string) => `${n.slice(0, -2)}${String((Number(n.slice(-2)) + 1) % 100).padStart(2, '0')}`;

// The inbox: search by sender, content, received dates; one message's page with its tasks,
// links and suggestions; canLink; Link / Classify with attachment classification (results and
// invoices made on the request) and Unlink. Only the inbox permission opens it; a message can only
// be linked to a request the actor may handle.

let t: TestContext;
let handler: string;
let acmeHandler: string;
let submitter: string;

const receive = (raw: Buffer, receivedAt?: Date) => receiveInto(t, raw, receivedAt);

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, acmeHandler, submitter } = await createInboxPeople(t));
});
afterAll(() => t.close());

describe('inbox search', () => {
  it('finds messages by sender, content and received dates, newest first and paged', async () => {
    await receive(
      mail(
        { From: 'Alice Able <alice@clinic.example>', Subject: 'Radiology films' },
        'The x-ray films are ready.',
      ),
      new Date('2026-03-02T03:00:00Z'),
    );
    await receive(
      mail({ From: 'bob@hospital.example', Subject: 'Invoice query' }, 'Our invoice remains unpaid.'),
      new Date('2026-03-05T03:00:00Z'),
    );
    const search = (q: string) => get(t, handler, `/inbox/search?${q}`);

    const bySender = await search('sender=ALICE');
    expect(bySender.statusCode).toBe(200);
    expect(bySender.json().hits.map((h: { item: { subject: string } }) => h.item.subject)).toEqual([
      'Radiology films',
    ]);
    expect(bySender.json().hits[0].item).toMatchObject({
      from: { email: 'alice@clinic.example', displayName: 'Alice Able' },
      requestNumbers: [],
    });

    const byContent = await search('content=unpaid');
    expect(byContent.json().hits.map((h: { item: { subject: string } }) => h.item.subject)).toEqual([
      'Invoice query',
    ]);

    const byDates = await search('receivedAtFrom=2026-03-01&receivedAtTo=2026-03-02');
    expect(byDates.json().hits.map((h: { item: { subject: string } }) => h.item.subject)).toEqual([
      'Radiology films',
    ]);

    const paged = await search('receivedAtFrom=2026-03-01&receivedAtTo=2026-03-06&pageSize=1&pageOffset=1');
    expect(paged.json()).toMatchObject({ total: 2, paging: { offset: 1, size: 1 } });
    expect(paged.json().hits[0].item.subject).toBe('Radiology films');
  });

  it('counts received dates as days in Sydney, where the organisation works', async () => {
    const at = (subject: string, iso: string) =>
      receive(mail({ From: 'days@clinic.example', Subject: subject }, 'Dated.'), new Date(iso));
    // 07:30 on 10 June in Sydney (UTC+10) is still 9 June in UTC.
    await at('Before breakfast', '2026-06-09T21:30:00Z');
    // 23:30 on 10 June in Sydney.
    await at('Before midnight', '2026-06-10T13:30:00Z');
    // 00:30 on 11 June in Sydney is still 10 June in UTC.
    await at('After midnight', '2026-06-10T14:30:00Z');
    const subjects = async (from: string, to: string) =>
      (await get(t, handler, `/inbox/search?sender=days@&receivedAtFrom=${from}&receivedAtTo=${to}`))
        .json()
        .hits.map((h: { item: { subject: string } }) => h.item.subject);
    expect(await subjects('2026-06-10', '2026-06-10')).toEqual(['Before midnight', 'Before breakfast']);
    expect(await subjects('2026-06-11', '2026-06-11')).toEqual(['After midnight']);
    expect(await subjects('2026-06-09', '2026-06-09')).toEqual([]);
  });

  it('refuses bad input with a message per field', async () => {
    const res = await get(t, handler, '/inbox/search?receivedAtFrom=2026-02-30');
    expect(res.statusCode).toBe(400);
  });

  it('is refused without the inbox permission', async () => {
    expect((await get(t, submitter, '/inbox/search')).statusCode).toBe(403);
    expect((await get(t, submitter, '/inbox')).statusCode).toBe(403);
    expect((await get(t, handler, '/inbox')).json()).toMatchObject({ $type: 'inbox' });
  });
});

describe('an inbox message', () => {
  it('shows the message, its task and suggestions by applicant name and sender email', async () => {
    const n = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      applicant: { name: 'Harriet Quimby' },
      recipient: { email: 'records@quimby-clinic.example' },
    });
    const { id } = await receive(
      mail(
        { From: 'records@quimby-clinic.example', Subject: 'Records of Harriet Quimby' },
        'Attached as asked.',
      ),
    );
    const res = await get(t, handler, `/inbox/messages/${id}`);
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      $type: 'inboxMessage',
      title: 'Records of Harriet Quimby',
      actions: ['link'],
    });
    expect(view.tasks).toMatchObject([{ type: 'classifyIncomingMessage', messageId: id }]);
    expect(view.suggestions[0]).toMatchObject({ requestNumber: n, applicantName: 'Harriet Quimby' });
    expect(view.suggestions[0].reasons).toContain('applicantName');

    expect((await get(t, submitter, `/inbox/messages/${id}`)).statusCode).toBe(403);
    expect((await get(t, handler, '/inbox/messages/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    );
    expect((await get(t, handler, '/inbox/messages/not-an-id')).statusCode).toBe(404);
  });
});

describe('link and unlink', () => {
  it('checks the request number: format, check digits, existence, scope', async () => {
    const acme = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const globex = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'GLX' });
    const closed = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'closed' });
    // Linked to an Acme request on arrival, the message is Acme's: its handlers work it.
    const anchor = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const { id } = await receive(mail({ From: 'x@example.org', Subject: `About ${anchor}` }, 'Hello.'));
    const canLink = async (cookie: string, n: string) =>
      (await get(t, cookie, `/inbox/messages/${encodeURIComponent(id)}/actions/link/${n}`)).json().canLink;
    expect(await canLink(acmeHandler, acme)).toBe(true);
    expect(await canLink(acmeHandler, forge(acme))).toBe(false);
    expect(await canLink(acmeHandler, 'NOT-A-NUMBER')).toBe(false);
    expect(await canLink(acmeHandler, createRequestNumber('ZZZ', new Date()))).toBe(false);
    expect(await canLink(acmeHandler, globex)).toBe(false);
    expect(await canLink(handler, globex)).toBe(true);
    // A closed request takes mail too; it stays closed (see 'mail for a closed request').
    expect(await canLink(acmeHandler, closed)).toBe(true);

    const link = (cookie: string, body: unknown) =>
      post(t, cookie, `/inbox/messages/${id}/actions/link`, body);
    const forged = await link(acmeHandler, {
      requestNumber: forge(acme),
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().fields.requestNumber).toMatch(/check digits/);
    expect((await link(acmeHandler, { requestNumber: globex })).statusCode).toBe(403);
    expect((await link(submitter, { requestNumber: acme })).statusCode).toBe(403);
    const nothing = await t.db
      .selectFrom('inbox_message_links')
      .select('request_number')
      .where('message_id', '=', id)
      .execute();
    expect(nothing).toEqual([{ request_number: anchor }]);
  });

  it('links with an attachment classified as result: correspondence, result, task completed', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const { id } = await receive(
      mail({ From: 'Records <records@clinic.example>', Subject: 'Your records' }, 'Here they are.', {
        name: 'records.pdf',
        type: 'application/pdf',
        bytes: PDF,
      }),
    );
    // Not linked yet, the message is the inbox's: staff at the root link it.
    const link = (body: unknown) => post(t, handler, `/inbox/messages/${id}/actions/link`, body);

    const missingTag = await link({ requestNumber: n, attachments: [{ classification: 'result' }] });
    expect(missingTag.statusCode).toBe(400);
    expect(missingTag.json().fields['attachments.0.resultTags.documentType']).toBe(
      'Document Type is required.',
    );
    expect(await link({ requestNumber: n, attachments: [] }).then((r) => r.statusCode)).toBe(400);

    const ok = await link({
      requestNumber: n.toLowerCase(),
      attachments: [{ classification: 'result', resultTags: { documentType: 'Medical records' } }],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().resultIds).toHaveLength(1);

    const page = (await get(t, acmeHandler, `/requests/${n}`)).json();
    expect(page.correspondence[0]).toMatchObject({ kind: 'message', subject: 'Your records' });
    expect(page.results).toHaveLength(1);
    const resultFile = await t.db
      .selectFrom('request_results as r')
      .innerJoin('files as f', 'f.key', 'r.file_key')
      .select(['f.owner_type', 'f.owner_id', 'f.classification', 'f.name'])
      .where('r.request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(resultFile).toEqual({
      owner_type: 'request',
      owner_id: n,
      classification: 'result',
      name: 'records.pdf',
    });

    const view = (await get(t, acmeHandler, `/inbox/messages/${id}`)).json();
    expect(view.tasks[0].completedAt).toBeDefined();
    expect(view.message.requestNumbers).toEqual([n]);
    expect(view.actions).toEqual(['link', 'unlink']);
    expect(
      (await link({ requestNumber: n, attachments: [{ classification: 'notIncluded' }] })).statusCode,
    ).toBe(409);
  });

  it('unlinks only linked numbers; the correspondence goes, results and invoices stay', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const other = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const { id, linkedTo } = await receive(
      mail({ From: 'billing@clinic.example', Subject: `Invoice for ${n}` }, 'Invoice attached.', {
        name: 'invoice.pdf',
        type: 'application/pdf',
        bytes: PDF,
      }),
    );
    expect(linkedTo).toEqual([n]);
    const unlink = (cookie: string, requestNumber: string) =>
      post(t, cookie, `/inbox/messages/${id}/actions/unlink`, { requestNumber });
    // Add an invoice from the linked attachment, as the request page would.
    const [entry] = (await get(t, acmeHandler, `/requests/${n}`)).json().correspondence;
    const added = await post(t, acmeHandler, `/requests/${n}/actions/addInvoice`, {
      file: { key: entry.attachments[0].key },
      tags: { invoiceType: 'Records fee' },
    });
    expect(added.statusCode).toBe(200);

    const notLinked = await unlink(acmeHandler, other);
    expect(notLinked.statusCode).toBe(400);
    expect(notLinked.json().fields.requestNumber).toBe('Choose a request this message is linked to.');
    expect((await unlink(submitter, n)).statusCode).toBe(403);

    expect((await unlink(acmeHandler, n)).statusCode).toBe(200);
    const page = (await get(t, acmeHandler, `/requests/${n}`)).json();
    expect(page.correspondence.filter((c: { kind: string }) => c.kind === 'message')).toHaveLength(0);
    expect(page.invoices).toHaveLength(1);
    // Unlinked from its last request, the message goes back to the inbox's scope, out of Acme's.
    expect((await unlink(acmeHandler, n)).statusCode).toBe(404);
    expect((await unlink(handler, n)).statusCode).toBe(400);
    const view = (await get(t, handler, `/inbox/messages/${id}`)).json();
    expect(view.message.requestLinks[0]).toMatchObject({ requestNumber: n });
    expect(view.message.requestLinks[0].unlinkedAt).toBeDefined();
    expect(view.actions).toEqual(['link']);
  });

  it('unlinks a message from a closed request, as the specification lets it, and records it', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const { id, linkedTo } = await receive(
      mail({ From: 'records@clinic.example', Subject: `Records for ${n}` }, 'Records attached.'),
    );
    expect(linkedTo).toEqual([n]);
    await t.db.updateTable('requests').set({ status: 'closed' }).where('request_number', '=', n).execute();
    const res = await post(t, acmeHandler, `/inbox/messages/${id}/actions/unlink`, { requestNumber: n });
    expect(res.statusCode, res.body).toBe(200);
    const events = await t.db.selectFrom('events').select('type').where('aggregate_id', '=', n).execute();
    expect(events.map((e) => e.type)).toContain('request.messageUnlinked');
    const request = await t.db
      .selectFrom('requests')
      .select('status')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('closed');
  });

  it('tells whoever has the message open when it is linked or unlinked (live topic)', async () => {
    const listener = new pg.Client({ connectionString: t.url });
    await listener.connect();
    const topics: string[] = [];
    listener.on('notification', (n) => {
      const envelope = JSON.parse(n.payload ?? '{}');
      if (envelope.kind === 'topic') topics.push(envelope.topic);
    });
    await listener.query('listen dossier_live');
    try {
      const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
      const { id } = await receive(mail({ From: 'nobody@elsewhere.example', Subject: 'Hello' }, 'Hi.'));
      const waitForTopics = async (count: number) => {
        for (let i = 0; i < 100 && topics.filter((x) => x === `inbox:${id}`).length < count; i++)
          await new Promise((r) => setTimeout(r, 25));
        return topics.filter((x) => x === `inbox:${id}`).length;
      };
      expect(
        (await post(t, handler, `/inbox/messages/${id}/actions/link`, { requestNumber: n })).statusCode,
      ).toBe(200);
      expect(await waitForTopics(1)).toBe(1);
      expect(
        (await post(t, handler, `/inbox/messages/${id}/actions/unlink`, { requestNumber: n })).statusCode,
      ).toBe(200);
      expect(await waitForTopics(2)).toBe(2);
    } finally {
      await listener.end();
    }
  });

  it("keeps each organisation's messages to its own staff: list, page, attachments, links", async () => {
    const acme = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const globex = await insertTestRequest(t.db, { scope: '/org/globex/', prefix: 'GLX' });
    const { id } = await receive(
      mail({ From: 'records@globex-clinic.example', Subject: `Reply for ${globex}` }, 'Globex secret.', {
        name: 'globex.pdf',
        type: 'application/pdf',
        bytes: PDF,
      }),
    );
    const { id: loose } = await receive(
      mail({ From: 'who@example.org', Subject: 'No number' }, 'Loose secret.'),
    );
    const seen = async (cookie: string) =>
      (await get(t, cookie, '/inbox/search?pageSize=100'))
        .json()
        .hits.map((h: { id: string }) => h.id) as string[];
    expect(await seen(handler)).toEqual(expect.arrayContaining([id, loose]));
    const acmeSees = await seen(acmeHandler);
    expect(acmeSees).not.toContain(id);
    expect(acmeSees).not.toContain(loose);
    expect((await get(t, acmeHandler, `/inbox/messages/${id}`)).statusCode).toBe(404);
    const found = await get(t, acmeHandler, '/inbox/search?content=secret');
    expect(found.body).not.toContain('Globex secret');
    // Its files: the raw message and the attachment.
    const message = await t.db
      .selectFrom('inbox_messages')
      .select(['raw_file_key', 'attachments', 'scope'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(message.scope).toBe('/org/globex/');
    const [attachment] = message.attachments as { key: string }[];
    assert(attachment);
    for (const key of [message.raw_file_key, attachment.key])
      expect((await get(t, acmeHandler, `/files/${key}`)).statusCode).toBe(403);
    expect((await get(t, handler, `/files/${attachment.key}`)).statusCode).toBe(200);
    // Nor can an Acme handler pull the Globex reply into an Acme request, where Acme's submitter reads it.
    const pulled = await post(t, acmeHandler, `/inbox/messages/${id}/actions/link`, { requestNumber: acme });
    expect(pulled.statusCode).toBe(404);
    expect((await get(t, acmeHandler, `/inbox/messages/${id}/actions/link/${acme}`)).statusCode).toBe(404);
  });

  it('marks a message matched by number from a stranger unverified: staff accept it before the sender sees it', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'submitter' });
    await receive(
      mail({ From: 'records@northside.example', Subject: `Records for ${n}` }, 'From the recipient.'),
    );
    await receive(mail({ From: 'mallory@evil.example', Subject: `Reply ${n}` }, 'Click http://evil.example'));
    const staffView = (await get(t, acmeHandler, `/requests/${n}`)).json();
    const messages = staffView.correspondence.filter((c: { kind: string }) => c.kind === 'message');
    const stranger = messages.find((c: { subject: string }) => c.subject === `Reply ${n}`);
    const recipient = messages.find((c: { subject: string }) => c.subject === `Records for ${n}`);
    expect(stranger).toMatchObject({ unverifiedSender: true, canAcceptSender: true });
    expect(recipient.unverifiedSender).toBeUndefined();
    const senderView = () => get(t, submitter, `/requests/${n}`).then((r) => r.json());
    expect((await senderView()).correspondence.map((c: { subject: string }) => c.subject)).toEqual([
      `Records for ${n}`,
    ]);

    const accept = (cookie: string) =>
      post(t, cookie, `/requests/${n}/correspondence/${stranger.messageId}/accept-sender`);
    expect((await accept(submitter)).statusCode).toBe(403);
    const ok = await accept(acmeHandler);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().item.unverifiedSender).toBeUndefined();
    expect((await accept(acmeHandler)).statusCode).toBe(409);
    expect((await senderView()).correspondence).toHaveLength(2);
  });

  it('answers 404 for an unknown action', async () => {
    const { id } = await receive(mail({ From: 'x@example.org', Subject: 'Hi' }, 'x'));
    const res = await t.app.inject({
      method: 'POST',
      url: `/inbox/messages/${id}/actions/forward`,
      headers: { ...XHR, cookie: handler },
      payload: {},
    });
    expect(res.statusCode).toBe(404);
  });
});
