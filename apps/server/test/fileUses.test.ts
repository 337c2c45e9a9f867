import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCorrespondence } from '../src/features/correspondence/repository.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, uploadPdf } from './support/resultsInvoices.js';

// A request file used more than once (issue 23 item 2, issue 32 item 1): whether the sender side may
// read it follows every use of it, not the last one written, and a use that denies wins over one
// that grants. A delivered result, an attachment of correspondence whose content the sender sees
// (staff's notes, the issued letter, a received message staff shared) grant it; an invoice or
// payment document, and a result awaiting QA or discarded, deny it whatever else the file is.

let t: TestContext;
let handler: string;
let submitter: string;

const RESULT_TAGS = { documentType: 'Medical records' };
const INVOICE_TAGS = { invoiceType: 'Records fee' };

/** A file of the request (uploaded by the handler, so only the owner's rule lets the submitter in). */
async function requestFile(n: string, name: string, classification: string | null = null) {
  const key = await uploadPdf(t, handler, name);
  await t.db
    .updateTable('files')
    .set({ owner_type: 'request', owner_id: n, classification })
    .where('key', '=', key)
    .execute();
  return key;
}

async function correspondence(
  n: string,
  kind: 'message' | 'issuedRequest',
  key: string,
  options: { unverifiedSender?: boolean; shared?: boolean } = {},
) {
  const { shared, ...rest } = options;
  const id = await insertCorrespondence(t.db, {
    requestNumber: n,
    kind,
    body: { type: 'text', content: 'Attached' },
    attachments: [{ key, name: 'file.pdf', contentType: 'application/pdf' }],
    createdBy: null,
    ...rest,
  });
  if (shared)
    await t.db
      .updateTable('correspondence')
      .set({ shared_with_sender_at: new Date(), shared_with_sender_by: 'harper' })
      .where('id', '=', id)
      .execute();
}

async function addResult(n: string, key: string) {
  const res = await post(t, handler, `/requests/${n}/actions/addResult`, {
    file: { key },
    tags: RESULT_TAGS,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().resultId as string;
}

async function addInvoice(n: string, key: string) {
  const res = await post(t, handler, `/requests/${n}/actions/addInvoice`, {
    file: { key },
    tags: INVOICE_TAGS,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().invoiceId as string;
}

const resultAction = async (n: string, id: string, action: string, body: object = {}) => {
  const res = await post(t, handler, `/requests/${n}/results/${id}/actions/${action}`, body);
  expect(res.statusCode, res.body).toBe(200);
};
const discardInvoice = async (n: string, id: string) => {
  const res = await post(t, handler, `/requests/${n}/invoices/${id}/actions/discard`);
  expect(res.statusCode, res.body).toBe(200);
};
const senderReads = async (key: string) => (await get(t, submitter, `/files/${key}`)).statusCode;
const open = () => insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'harper', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'sam',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  handler = await signIn(t.app, 'harper');
  submitter = await signIn(t.app, 'sam');
});
afterAll(() => t.close());

describe('a request file used twice', () => {
  it('a shared message’s attachment chosen as result and as invoice never reaches the sender', async () => {
    const n = await open();
    const key = await requestFile(n, 'records.pdf');
    await correspondence(n, 'message', key, { shared: true });
    expect(await senderReads(key)).toBe(200);
    const resultId = await addResult(n, key);
    const invoiceId = await addInvoice(n, key);
    expect(await senderReads(key)).toBe(403);
    // QA delivers the result, but the invoice use still denies; so it does once discarded.
    await resultAction(n, resultId, 'qualityAssure', { itemTypes: [] });
    expect(await senderReads(key)).toBe(403);
    await discardInvoice(n, invoiceId);
    expect(await senderReads(key)).toBe(403);
    // Staff read it all along.
    expect((await get(t, handler, `/files/${key}`)).statusCode).toBe(200);
  });

  it('a shared message’s attachment chosen as result is held back until QA and again once discarded', async () => {
    const n = await open();
    const key = await requestFile(n, 'result.pdf');
    await correspondence(n, 'message', key, { shared: true });
    const resultId = await addResult(n, key);
    expect(await senderReads(key)).toBe(403);
    await resultAction(n, resultId, 'qualityAssure', { itemTypes: [] });
    expect(await senderReads(key)).toBe(200);
    await resultAction(n, resultId, 'discard');
    expect(await senderReads(key)).toBe(403);
  });

  it('a received message’s attachment not shared is staff’s, until a result of it is delivered', async () => {
    const n = await open();
    const key = await requestFile(n, 'mailed.pdf');
    await correspondence(n, 'message', key);
    expect(await senderReads(key)).toBe(403);
    const resultId = await addResult(n, key);
    expect(await senderReads(key)).toBe(403);
    await resultAction(n, resultId, 'qualityAssure', { itemTypes: [] });
    expect(await senderReads(key)).toBe(200);
  });

  it('the issued letter used as an invoice file is no longer the sender’s, also after the invoice is discarded', async () => {
    const n = await open();
    const letter = await requestFile(n, 'letter.pdf', 'requestLetter');
    await correspondence(n, 'issuedRequest', letter);
    expect(await senderReads(letter)).toBe(200);
    const invoiceId = await addInvoice(n, letter);
    expect(await senderReads(letter)).toBe(403);
    await discardInvoice(n, invoiceId);
    expect(await senderReads(letter)).toBe(403);
  });

  it('an invoice or a result not delivered never grants the sender a file on its own', async () => {
    const n = await open();
    const invoiceFile = await uploadPdf(t, handler, 'invoice.pdf');
    const invoiceId = await addInvoice(n, invoiceFile);
    expect(await senderReads(invoiceFile)).toBe(403);
    await discardInvoice(n, invoiceId);
    expect(await senderReads(invoiceFile)).toBe(403);
    const resultFile = await uploadPdf(t, handler, 'result.pdf');
    const resultId = await addResult(n, resultFile);
    await resultAction(n, resultId, 'discard');
    expect(await senderReads(resultFile)).toBe(403);
  });

  it('an attachment of a message the sender does not see yet (unverified sender) is staff’s only', async () => {
    const n = await open();
    const key = await requestFile(n, 'unverified.pdf');
    await correspondence(n, 'message', key, { unverifiedSender: true, shared: true });
    expect(await senderReads(key)).toBe(403);
    expect((await get(t, handler, `/files/${key}`)).statusCode).toBe(200);
  });

  it('the applicant’s own files (no other use) stay readable', async () => {
    const n = await open();
    const authority = await requestFile(n, 'authority.pdf');
    expect(await senderReads(authority)).toBe(200);
  });
});
