import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { mail, receiveInto } from './support/mail.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { get, PDF, post } from './support/resultsInvoices.js';

// Issue 32, item 1: what the recipient sends in is staff's. A PDF mailed in from the recipient's
// address is linked to its request; the sender side (the organisation's submitter, an external user
// whose reference the request carries) sees that it arrived (date, from, subject), not its body or
// attachment, until a handler shares it with the sender (recorded, undoable). A file used as an
// invoice or as a result not yet delivered stays staff's whatever else it is. Another
// organisation's user, the sender side and bad input are refused the new actions.

let t: TestContext;
let handler: string;
let submitter: string;
let globex: string;
let advisor: string;
const BODY = 'Please find the records of Jane Citizen attached.';

interface Item {
  messageId: string;
  kind: string;
  subject?: string | null;
  from?: { email?: string | null } | null;
  body: { content: unknown };
  attachments: { key: string; name: string }[];
  withheld?: boolean;
  sharedWithSender?: { at: string; byDisplayName: string | null };
  canShareWithSender?: boolean;
  canStopSharingWithSender?: boolean;
}

const page = async (n: string, cookie: string) => {
  const res = await get(t, cookie, `/requests/${n}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    correspondence: Item[];
    invoices: unknown[];
    results: { file: { key: string } }[];
    history: { type: string; summary: string }[];
  };
};
const messageOf = async (n: string, cookie: string) =>
  (await page(n, cookie)).correspondence.find((c) => c.kind === 'message') as Item;
const reads = async (cookie: string, key: string) => (await get(t, cookie, `/files/${key}`)).statusCode;
const share = (n: string, id: string, cookie: string) =>
  post(t, cookie, `/requests/${n}/correspondence/${id}/share-with-sender`);
const stopSharing = (n: string, id: string, cookie: string) =>
  post(t, cookie, `/requests/${n}/correspondence/${id}/stop-sharing-with-sender`);

/** A request of Acme, and a reply with a PDF mailed in from its recipient's address. */
async function mailedIn(options: { from?: string; status?: 'open' | 'closed' } = {}) {
  const n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    status: options.status ?? 'open',
    submittedBy: 'submitter',
    externalUserReferences: ['ADV-1'],
  });
  const { linkedTo, id: inboxId } = await receiveInto(
    t,
    mail(
      { From: options.from ?? 'records@northside.example', Subject: `Re: Request for records ${n}` },
      BODY,
      { name: 'records.pdf', type: 'application/pdf', bytes: PDF },
    ),
  );
  expect(linkedTo).toEqual([n]);
  const staffItem = await messageOf(n, handler);
  const key = staffItem.attachments[0]?.key as string;
  expect(key).toBeTruthy();
  return { n, id: staffItem.messageId, key, inboxId };
}

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, submitter, globex } = await createUsualPeople(t));
  await createUser(t.db, {
    id: 'advisor',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-1' }],
  });
  advisor = await signIn(t.app, 'advisor');
});
afterAll(() => t.close());

describe('a message mailed in by the recipient', () => {
  it('shows the sender side that it arrived, not its body or attachment, and refuses the file', async () => {
    const { n, key } = await mailedIn();
    for (const cookie of [submitter, advisor]) {
      const item = await messageOf(n, cookie);
      expect(item).toMatchObject({
        withheld: true,
        subject: `Re: Request for records ${n}`,
        from: { email: 'records@northside.example' },
        attachments: [],
        body: { content: '' },
      });
      expect(item.canShareWithSender).toBeUndefined();
      const res = await get(t, cookie, `/requests/${n}`);
      expect(res.body).not.toContain(BODY);
      expect(res.body).not.toContain(key);
      expect(await reads(cookie, key)).toBe(403);
      // Nor does the hover preview quote it.
      const preview = await get(t, cookie, `/requests/${n}/preview`);
      expect(preview.json().mostRecentCorrespondence).toMatchObject({ kind: 'message', excerpt: '' });
      expect(preview.body).not.toContain('Jane Citizen attached');
    }
    // Staff read it all and may share it.
    const staff = await messageOf(n, handler);
    expect(staff).toMatchObject({ canShareWithSender: true, canStopSharingWithSender: false });
    expect(staff.withheld).toBeUndefined();
    expect(staff.body.content).toBe(BODY);
    expect(await reads(handler, key)).toBe(200);
    expect((await get(t, handler, `/requests/${n}/preview`)).body).toContain('Jane Citizen attached');
  });

  it('used as an invoice it stays staff’s, also once the message is shared', async () => {
    const { n, id, key } = await mailedIn();
    const invoice = await post(t, handler, `/requests/${n}/actions/addInvoice`, {
      file: { key },
      tags: { invoiceType: 'Records fee' },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    expect(await reads(submitter, key)).toBe(403);
    expect((await share(n, id, handler)).statusCode).toBe(200);
    for (const cookie of [submitter, advisor]) {
      expect(await reads(cookie, key)).toBe(403);
      const view = await page(n, cookie);
      expect(view.invoices).toEqual([]);
      // The shared message's text, but never an attachment it would refuse to open.
      const item = view.correspondence.find((c) => c.messageId === id) as Item;
      expect(item.body.content).toBe(BODY);
      expect(item.attachments).toEqual([]);
    }
    expect(await reads(handler, key)).toBe(200);
  });

  it('used as a result it reaches the sender only once quality-assured, and never once discarded', async () => {
    const { n, id, key } = await mailedIn();
    expect((await share(n, id, handler)).statusCode).toBe(200);
    expect(await reads(submitter, key)).toBe(200);
    const added = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Medical records' },
    });
    expect(added.statusCode, added.body).toBe(200);
    const resultId = added.json().resultId as string;
    // Awaiting QA: the result use denies, whatever the shared message grants.
    for (const cookie of [submitter, advisor]) {
      expect(await reads(cookie, key)).toBe(403);
      expect((await messageOf(n, cookie)).attachments).toEqual([]);
    }
    const qa = await post(t, handler, `/requests/${n}/results/${resultId}/actions/qualityAssure`, {
      itemTypes: [],
    });
    expect(qa.statusCode, qa.body).toBe(200);
    for (const cookie of [submitter, advisor]) {
      expect(await reads(cookie, key)).toBe(200);
      expect((await page(n, cookie)).results.map((r) => r.file.key)).toEqual([key]);
    }
    const discarded = await post(t, handler, `/requests/${n}/results/${resultId}/actions/discard`, {
      reason: 'Records of another person.',
    });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(await reads(submitter, key)).toBe(403);
    expect((await messageOf(n, submitter)).attachments).toEqual([]);
  });

  it('shared, the sender side reads it; once sharing stops, no longer; both in the history', async () => {
    const { n, id, key } = await mailedIn();
    const shared = await share(n, id, handler);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().item).toMatchObject({
      sharedWithSender: { byDisplayName: expect.any(String) },
      canShareWithSender: false,
      canStopSharingWithSender: true,
    });
    for (const cookie of [submitter, advisor]) {
      const item = await messageOf(n, cookie);
      expect(item.withheld).toBeUndefined();
      expect(item.body.content).toBe(BODY);
      expect(item.attachments.map((a) => a.key)).toEqual([key]);
      expect(item.sharedWithSender).toBeUndefined();
      expect(await reads(cookie, key)).toBe(200);
      expect((await get(t, cookie, `/requests/${n}/preview`)).body).toContain('Jane Citizen attached');
    }
    const stopped = await stopSharing(n, id, handler);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().item).toMatchObject({ canShareWithSender: true, canStopSharingWithSender: false });
    for (const cookie of [submitter, advisor]) {
      expect(await messageOf(n, cookie)).toMatchObject({ withheld: true, attachments: [] });
      expect(await reads(cookie, key)).toBe(403);
    }
    const history = (await page(n, submitter)).history.map((h) => h.summary);
    expect(history).toEqual(
      expect.arrayContaining([
        `Shared the message from records@northside.example ("Re: Request for records ${n}") with the sender.`,
        `Stopped sharing the message from records@northside.example ("Re: Request for records ${n}") with the sender.`,
      ]),
    );
  });
});

describe('a shared message unlinked from the request', () => {
  it('leaves its attachment to staff: a received file is never one of the request’s own', async () => {
    const { n, id, key, inboxId } = await mailedIn();
    expect((await share(n, id, handler)).statusCode).toBe(200);
    expect(await reads(submitter, key)).toBe(200);
    const unlinked = await post(t, handler, `/inbox/messages/${inboxId}/actions/unlink`, {
      requestNumber: n,
    });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect((await page(n, submitter)).correspondence.filter((c) => c.kind === 'message')).toEqual([]);
    for (const cookie of [submitter, advisor]) expect(await reads(cookie, key)).toBe(403);
    expect(await reads(handler, key)).toBe(200);
  });
});

describe('a delivered result whose file is also an invoice', () => {
  it('is listed nowhere to the sender side, and its page and file are refused', async () => {
    const { n, key } = await mailedIn();
    const added = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Medical records' },
    });
    const resultId = added.json().resultId as string;
    expect(
      (await post(t, handler, `/requests/${n}/results/${resultId}/actions/qualityAssure`, { itemTypes: [] }))
        .statusCode,
    ).toBe(200);
    // Delivered (and not yet downloaded, so on the Results tile too).
    expect((await get(t, submitter, '/results/download-files')).body).toContain(key);
    const tile = async (cookie: string) => (await get(t, cookie, '/dashboard/results?pageSize=50')).body;
    expect(await tile(submitter)).toContain(resultId);
    const invoice = await post(t, handler, `/requests/${n}/actions/addInvoice`, {
      file: { key },
      tags: { invoiceType: 'Records fee' },
    });
    expect(invoice.statusCode, invoice.body).toBe(200);
    for (const cookie of [submitter, advisor]) {
      expect(await reads(cookie, key)).toBe(403);
      const view = await page(n, cookie);
      expect(view.results).toEqual([]);
      expect(JSON.stringify(view)).not.toContain(key);
      expect((await get(t, cookie, `/requests/${n}/results/${resultId}`)).statusCode).toBe(403);
    }
    expect((await get(t, submitter, '/results/download-files')).body).not.toContain(key);
    for (const cookie of [submitter, advisor]) expect(await tile(cookie)).not.toContain(resultId);
    expect(await tile(handler)).toContain(resultId);
    // Staff still see and open it everywhere.
    expect((await page(n, handler)).results.map((r) => r.file.key)).toEqual([key]);
    expect((await get(t, handler, `/requests/${n}/results/${resultId}`)).statusCode).toBe(200);
  });
});

describe('Share with sender and Stop sharing with sender', () => {
  it('are refused to the sender side and to another organisation’s user', async () => {
    const { n, id, key } = await mailedIn();
    for (const cookie of [submitter, advisor]) expect((await share(n, id, cookie)).statusCode).toBe(403);
    expect([403, 404]).toContain((await share(n, id, globex)).statusCode);
    expect((await share(n, id, handler)).statusCode).toBe(200);
    for (const cookie of [submitter, advisor])
      expect((await stopSharing(n, id, cookie)).statusCode).toBe(403);
    const foreign = await stopSharing(n, id, globex);
    expect([403, 404]).toContain(foreign.statusCode);
    expect(foreign.body).not.toContain('northside');
    // Still shared: none of the refusals changed anything.
    expect(await reads(submitter, key)).toBe(200);
    expect(await reads(globex, key)).toBe(403);
  });

  it('refuse bad input: no such entry, a note, twice, an unverified message, a closed request', async () => {
    const { n, id } = await mailedIn();
    expect((await share(n, 'not-a-uuid', handler)).statusCode).toBe(404);
    expect((await share(n, '00000000-0000-4000-8000-000000000000', handler)).statusCode).toBe(404);
    // An id longer than any (the route's own limit is 100) is refused before the request is read.
    expect((await share(n, 'x'.repeat(101), handler)).statusCode).toBe(414);
    expect((await share('NOSUCH', id, handler)).statusCode).toBe(404);
    const note = await post(t, handler, `/requests/${n}/actions/addNote`, {
      body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Hi' }] }] },
    });
    const noteId = note.json().messageId as string;
    const onNote = await share(n, noteId, handler);
    expect(onNote.statusCode).toBe(409);
    expect(onNote.json()).toMatchObject({ message: 'Only a received message is shared with the sender.' });
    expect((await stopSharing(n, id, handler)).json()).toMatchObject({
      message: 'This message is not shared with the sender.',
    });
    expect((await share(n, id, handler)).statusCode).toBe(200);
    const twice = await share(n, id, handler);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ message: 'This message is already shared with the sender.' });

    const stranger = await mailedIn({ from: 'someone@elsewhere.example' });
    const unverified = await share(stranger.n, stranger.id, handler);
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json()).toMatchObject({ message: 'Accept the sender of this message first.' });

    // A closed request: nothing more is shared, but what was shared can be taken back.
    await t.db.updateTable('requests').set({ status: 'closed' }).where('request_number', '=', n).execute();
    expect((await stopSharing(n, id, handler)).statusCode).toBe(200);
    const closed = await share(n, id, handler);
    expect(closed.statusCode).toBe(409);
    expect(closed.json()).toMatchObject({ message: 'The request is closed.' });
  });
});
