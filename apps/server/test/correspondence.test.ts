import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, uploadPdf } from './support/resultsInvoices.js';

// Correspondence: the list of notes, issued requests and messages on the request page, and
// the edit of an entry, allowed only when isEditable: a note, by its author, while the request is
// not closed.

let t: TestContext;
let handler: string;
let submitter: string;
let globex: string;

const doc = (text: string) => ({
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text }] }],
});

const correspondence = async (n: string, cookie: string) =>
  (await get(t, cookie, `/requests/${n}`)).json().correspondence as {
    messageId: string;
    kind: string;
    isEditable: boolean;
    body: { content: unknown };
    attachments: { key: string; name: string }[];
    updatedByDisplayName?: string;
  }[];

async function addNote(n: string, cookie: string, text: string): Promise<string> {
  const res = await post(t, cookie, `/requests/${n}/actions/addNote`, { body: doc(text) });
  expect(res.statusCode).toBe(200);
  return res.json().messageId;
}

const edit = (n: string, messageId: string, cookie: string, payload: Record<string, unknown>) =>
  post(t, cookie, `/requests/${n}/correspondence/${messageId}`, payload);

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, submitter, globex } = await createUsualPeople(t));
});
afterAll(() => t.close());

describe('correspondence list', () => {
  it('lists newest first; only the author may edit a note, and nobody an issued request', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const first = await addNote(n, submitter, 'First note');
    const second = await addNote(n, handler, 'Second note');
    const issued = await post(t, handler, `/requests/${n}/actions/issueRequest`, {
      issueRequestMethod: 'postal',
      subject: 'Records',
      body: doc('Please send the records.'),
    });
    expect(issued.statusCode).toBe(200);

    const asSubmitter = await correspondence(n, submitter);
    expect(asSubmitter.map((c) => c.kind)).toEqual(['issuedRequest', 'note', 'note']);
    expect(asSubmitter.map((c) => c.messageId).slice(1)).toEqual([second, first]);
    expect(asSubmitter.map((c) => c.isEditable)).toEqual([false, false, true]);
    const asHandler = await correspondence(n, handler);
    expect(asHandler.map((c) => c.isEditable)).toEqual([false, true, false]);

    const refused = await edit(n, issued.json().messageId, handler, { content: doc('Changed') });
    expect(refused.statusCode).toBe(403);
    expect((await edit(n, first, handler, { content: doc('Not mine') })).statusCode).toBe(403);
  });
});

describe('correspondence edit', () => {
  it('saves the author’s new content and attachments, with who and when, and records it', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const id = await addNote(n, submitter, 'Original');
    const key = await uploadPdf(t, submitter, 'letter.pdf');
    const res = await edit(n, id, submitter, {
      content: doc('Edited text'),
      attachments: [{ key, name: 'letter.pdf' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({
      messageId: id,
      isEditable: true,
      updatedByDisplayName: 'User submitter',
      attachments: [{ key, name: 'letter.pdf' }],
      body: { type: 'richText', content: doc('Edited text') },
    });
    const file = await t.db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    expect([file.owner_type, file.owner_id]).toEqual(['request', n]);
    expect((await get(t, handler, `/files/${key}`)).statusCode).toBe(200);
    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('aggregate_id', '=', n)
      .where('type', '=', 'request.correspondenceEdited')
      .executeTakeFirstOrThrow();
    expect((event.payload as { summary: string }).summary).toBe('Edited a note.');

    // Keeping the attachment needs no new claim; dropping it removes it from the entry.
    const kept = await edit(n, id, submitter, { content: doc('Again'), attachments: [{ key }] });
    expect(kept.json().item.attachments).toEqual([{ key, name: 'letter.pdf' }]);
    const dropped = await edit(n, id, submitter, { content: doc('Again'), attachments: [] });
    expect(dropped.json().item.attachments).toEqual([]);
  });

  it('refuses empty content and bad attachments with field errors and changes nothing', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const id = await addNote(n, submitter, 'Keep me');
    const empty = await edit(n, id, submitter, { content: { type: 'doc', content: [] } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fields).toEqual({ content: 'This field is required.' });
    const missing = await edit(n, id, submitter, {});
    expect(missing.json().fields).toEqual({ content: 'This field is required.' });
    const badFile = await edit(n, id, submitter, { content: doc('x'), attachments: [{ key: 'nope' }] });
    expect(badFile.statusCode).toBe(400);
    expect(badFile.json().fields).toEqual({ 'attachments.0': 'The file does not exist.' });
    const notList = await edit(n, id, submitter, { content: doc('x'), attachments: 'a' });
    expect(notList.json().fields).toEqual({ attachments: 'Attachments must be a list of files.' });
    const [entry] = await correspondence(n, submitter);
    assert(entry);
    expect(entry.body.content).toEqual(doc('Keep me'));
    expect(entry.updatedByDisplayName).toBeUndefined();
  });

  it('answers 409 on a closed request, 404 for unknown entries, 403 to another organisation', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const id = await addNote(n, submitter, 'Before closing');
    await t.db
      .updateTable('requests')
      .set({ status: 'closed', closed_at: new Date() })
      .where('request_number', '=', n)
      .execute();
    const closed = await edit(n, id, submitter, { content: doc('After closing') });
    expect(closed.statusCode).toBe(409);
    expect((await correspondence(n, submitter))[0]?.isEditable).toBe(false);

    const open = await insertTestRequest(t.db, { scope: '/org/acme/' });
    const note = await addNote(open, submitter, 'Mine');
    expect(
      (await edit(open, '00000000-0000-0000-0000-000000000000', submitter, { content: doc('x') })).statusCode,
    ).toBe(404);
    expect((await edit(open, 'not-a-uuid', submitter, { content: doc('x') })).statusCode).toBe(404);
    expect((await edit(open, id, submitter, { content: doc('x') })).statusCode).toBe(404);
    expect((await edit(open, note, globex, { content: doc('x') })).statusCode).toBe(403);
  });
});

describe('notes tell the submitter', () => {
  const notesOf = async (userId: string, n: string) =>
    t.db
      .selectFrom('notifications')
      .select(['type', 'text'])
      .where('user_id', '=', userId)
      .where('target', '=', `/requests/${n}`)
      .execute();

  it("a handler's note notifies the request's submitter once; the submitter's own note does not", async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'submitter' });
    await addNote(n, handler, 'We have asked the hospital.');
    const told = await notesOf('submitter', n);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'requestNoteAdded' });
    expect(told[0]?.text).toContain(`added a note to request ${n}.`);
    await addNote(n, submitter, 'Thank you.');
    expect(await notesOf('submitter', n)).toHaveLength(1);
  });

  it('a submitter who can no longer see the request is not told', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'globex' });
    await addNote(n, handler, 'Not for Globex.');
    expect(await notesOf('globex', n)).toEqual([]);
  });
});
