import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './helpers.js';
import { createUsualPeople } from './support/people.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, setRequestSettings, uploadPdf } from './support/resultsInvoices.js';

// Results (add result action, result page): adding with an uploaded or a correspondence
// file, quality assurance with the item types, discard, QA skipped by settings, auto-close, access.

let t: TestContext;
let handler: string;
let submitter: string;
let globex: string;
let n: string;

const CONTENT = {
  itemTypes: [
    { id: 'gpRecords', name: 'GP records' },
    { id: 'xray', name: 'X-ray images' },
  ],
};
const TAGS = { documentType: 'Medical records' };

const resultCount = async (requestNumber: string) =>
  Number(
    (
      await t.db
        .selectFrom('request_results')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('request_number', '=', requestNumber)
        .executeTakeFirstOrThrow()
    ).n,
  );

async function addResult(requestNumber: string, body?: Record<string, unknown>) {
  const key = await uploadPdf(t, handler);
  const res = await post(t, handler, `/requests/${requestNumber}/actions/addResult`, {
    file: { key },
    tags: TAGS,
    ...body,
  });
  return { res, key };
}

beforeAll(async () => {
  t = await createTestContext();
  ({ handler, submitter, globex } = await createUsualPeople(t));
  n = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open', content: CONTENT });
});
afterAll(() => t.close());

describe('addResult', () => {
  it('refuses missing file and tags with field errors and changes nothing', async () => {
    const key = await uploadPdf(t, handler);
    const noTags = await post(t, handler, `/requests/${n}/actions/addResult`, { file: { key }, tags: {} });
    expect(noTags.statusCode).toBe(400);
    expect(noTags.json().fields).toEqual({ 'tags.documentType': 'Document Type is required.' });
    const badTag = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key },
      tags: { documentType: 'Poetry' },
    });
    expect(badTag.json().fields['tags.documentType']).toMatch(/Choose one of the values/);
    const noFile = await post(t, handler, `/requests/${n}/actions/addResult`, { tags: TAGS });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().fields.file).toBe('A file is required.');
    expect(await resultCount(n)).toBe(0);
    const file = await t.db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    expect(file.owner_type).toBeNull();
  });

  it('refuses a file that is not the handler’s upload nor a correspondence attachment', async () => {
    const othersKey = await uploadPdf(t, submitter);
    const res = await post(t, handler, `/requests/${n}/actions/addResult`, {
      file: { key: othersKey },
      tags: TAGS,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.file).toBe('The file is attached elsewhere.');
    expect(await resultCount(n)).toBe(0);
  });

  it('adds a result with its file, an event and a new version', async () => {
    const before = await t.db
      .selectFrom('requests')
      .select('version')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    const { res, key } = await addResult(n);
    expect(res.statusCode).toBe(200);
    const { resultId } = res.json();
    const row = await t.db
      .selectFrom('request_results')
      .selectAll()
      .where('id', '=', resultId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      file_key: key,
      tags: TAGS,
      quality_assurance_skipped: false,
      created_by: 'handler',
    });
    const file = await t.db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirstOrThrow();
    expect(file).toMatchObject({ owner_type: 'request', owner_id: n, classification: 'result' });
    const after = await t.db
      .selectFrom('requests')
      .select('version')
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    expect(after.version).toBe(before.version + 1);
    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('aggregate_id', '=', n)
      .where('type', '=', 'request.resultAdded')
      .executeTakeFirstOrThrow();
    expect((event.payload as { summary: string }).summary).toBe(
      'Added a result (Document Type: Medical records).',
    );
    // Awaiting QA, the file has not reached the sender: the submitter may not read it yet, nor
    // may another organisation.
    expect((await get(t, submitter, `/files/${key}`)).statusCode).toBe(403);
    expect((await get(t, globex, `/files/${key}`)).statusCode).toBe(403);
  });

  it('takes a non-blocked correspondence attachment, and refuses a blocked one or the authority', async () => {
    const r = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'open' });
    const keys = ['attOkKey0000000000001', 'attBlocked00000000001', 'authority000000000001'];
    await t.db
      .insertInto('files')
      .values(
        keys.map((key) => ({
          key,
          name: `${key}.pdf`,
          content_type: 'application/pdf',
          declared_size: 10,
          size: 10,
          owner_type: 'request',
          owner_id: r,
          uploaded_at: new Date(),
          created_at: new Date(),
        })),
      )
      .execute();
    await t.db
      .insertInto('correspondence')
      .values({
        request_number: r,
        kind: 'message',
        body: JSON.stringify({ type: 'text', content: 'Records attached' }),
        attachments: JSON.stringify([
          { key: keys[0], name: 'records.pdf' },
          { key: keys[1], name: 'virus.pdf', blocked: true },
        ]),
        created_at: new Date(),
      })
      .execute();
    for (const key of [keys[1], keys[2]]) {
      const res = await post(t, handler, `/requests/${r}/actions/addResult`, { file: { key }, tags: TAGS });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields.file).toBe('Choose an upload or an attachment of the correspondence.');
    }
    const ok = await post(t, handler, `/requests/${r}/actions/addResult`, {
      file: { key: keys[0] },
      tags: TAGS,
    });
    expect(ok.statusCode).toBe(200);
    expect(await resultCount(r)).toBe(1);
  });

  it('answers 409 on a closed request and 403 to a submitter or another organisation', async () => {
    const closed = await insertTestRequest(t.db, { scope: '/org/acme/', status: 'closed' });
    expect((await addResult(closed)).res.statusCode).toBe(409);
    const key = await uploadPdf(t, submitter);
    const body = { file: { key }, tags: TAGS };
    expect((await post(t, submitter, `/requests/${n}/actions/addResult`, body)).statusCode).toBe(403);
    expect((await post(t, globex, `/requests/${n}/actions/addResult`, body)).statusCode).toBe(403);
    expect(await resultCount(closed)).toBe(0);
  });

  it('skips quality assurance when the request settings say so', async () => {
    await setRequestSettings(t, '/org/skipqa/', { disableResultQualityAssurance: true });
    const r = await insertTestRequest(t.db, { scope: '/org/skipqa/', status: 'open' });
    const { res } = await addResult(r);
    const { resultId } = res.json();
    const page = await get(t, handler, `/requests/${r}/results/${resultId}`);
    expect(page.json().result.qualityAssuranceSkipped).toBe(true);
    expect(page.json().actions).toEqual(['discard']);
    const qa = await post(t, handler, `/requests/${r}/results/${resultId}/actions/qualityAssure`, {
      itemTypes: [],
    });
    expect(qa.statusCode).toBe(409);
  });
});

describe('result page and actions', () => {
  let resultId: string;
  beforeAll(async () => {
    resultId = (await addResult(n)).res.json().resultId;
  });
  const page = () => `/requests/${n}/results/${resultId}`;
  const action = (name: string) => `${page()}/actions/${name}`;

  it('shows the result, its request item types and the actions offered', async () => {
    const res = await get(t, handler, page());
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      $type: 'requestResult',
      requestNumber: n,
      applicantName: 'Jane Citizen',
      actions: ['qualityAssure', 'discard'],
      requestItemTypes: CONTENT.itemTypes,
    });
    expect(view.result).toMatchObject({
      resultId,
      tags: TAGS,
      subject: 'Jane Citizen',
      createdByDisplayName: 'User handler',
    });
    expect(view.result.file.name).toBe('result.pdf');
  });

  it('keeps it from the submitter until QA, refuses actions to submitters and others', async () => {
    expect((await get(t, submitter, page())).statusCode).toBe(403);
    expect((await post(t, submitter, action('qualityAssure'), { itemTypes: ['xray'] })).statusCode).toBe(403);
    expect((await get(t, globex, page())).statusCode).toBe(403);
    expect((await post(t, globex, action('discard'))).statusCode).toBe(403);
    expect(
      (await get(t, handler, `/requests/${n}/results/00000000-0000-4000-8000-000000000000`)).statusCode,
    ).toBe(404);
    expect((await get(t, handler, `/requests/${n}/results/nope`)).statusCode).toBe(404);
  });

  it('quality-assures with item types of the request only, once', async () => {
    const unknown = await post(t, handler, action('qualityAssure'), { itemTypes: ['dental'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields.itemTypes).toBe('Choose item types of this request only.');
    const none = await post(t, handler, action('qualityAssure'), { itemTypes: [] });
    expect(none.json().fields.itemTypes).toBe('Choose the item types this result covers.');
    const malformed = await post(t, handler, action('qualityAssure'), { itemTypes: 'xray' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().fields.itemTypes).toBeDefined();
    const row = await t.db
      .selectFrom('request_results')
      .selectAll()
      .where('id', '=', resultId)
      .executeTakeFirstOrThrow();
    expect(row.quality_assured_at).toBeNull();

    const ok = await post(t, handler, action('qualityAssure'), { itemTypes: ['xray'] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result).toMatchObject({
      qualityAssuredBy: 'handler',
      qualityAssuredByDisplayName: 'User handler',
      itemTypes: [{ id: 'xray', name: 'X-ray images' }],
    });
    expect(ok.json().actions).toEqual(['discard']);
    // Quality-assured, the result reaches the organisation's submitter, without actions.
    const mine = await get(t, submitter, page());
    expect(mine.statusCode).toBe(200);
    expect(mine.json().actions).toEqual([]);
    const again = await post(t, handler, action('qualityAssure'), { itemTypes: ['xray'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The result is already quality assured.');
  });

  it('discards once', async () => {
    const ok = await post(t, handler, action('discard'));
    expect(ok.statusCode).toBe(200);
    expect(ok.json().result.discardedAt).toBeDefined();
    expect(ok.json().actions).toEqual([]);
    expect((await post(t, handler, action('discard'))).statusCode).toBe(409);
    expect((await post(t, handler, `${page()}/actions/explode`)).statusCode).toBe(404);
  });

  it('lists the results of the request for the request page', async () => {
    const { listRequestResults } = await import('../src/features/results/list.js');
    const request = await t.db
      .selectFrom('requests')
      .selectAll()
      .where('request_number', '=', n)
      .executeTakeFirstOrThrow();
    const staff = { roles: [{ role: 'c:roles:handler', scope: '/' }] } as never;
    const items = await listRequestResults(t.db, staff, request);
    expect(items.map((i) => i.resultId)).toContain(resultId);
    expect(items.every((i) => i.requestNumber === n)).toBe(true);
  });
});

describe('auto-close when every result is quality assured', () => {
  it('closes the request with the close note after the last QA', async () => {
    await setRequestSettings(t, '/org/autoclose/', { autoCloseRequestWhenAllResultsAreQualityAssured: true });
    const r = await insertTestRequest(t.db, {
      scope: '/org/autoclose/',
      status: 'open',
      submittedBy: 'submitter',
    });
    const first = (await addResult(r)).res.json().resultId;
    const second = (await addResult(r)).res.json().resultId;
    const third = (await addResult(r)).res.json().resultId;
    expect((await post(t, handler, `/requests/${r}/results/${third}/actions/discard`)).statusCode).toBe(200);
    await post(t, handler, `/requests/${r}/results/${first}/actions/qualityAssure`, { itemTypes: [] });
    const open = await t.db
      .selectFrom('requests')
      .selectAll()
      .where('request_number', '=', r)
      .executeTakeFirstOrThrow();
    expect(open.status).toBe('open');
    await post(t, handler, `/requests/${r}/results/${second}/actions/qualityAssure`, { itemTypes: [] });
    const closed = await t.db
      .selectFrom('requests')
      .selectAll()
      .where('request_number', '=', r)
      .executeTakeFirstOrThrow();
    expect(closed).toMatchObject({ status: 'closed', closed_by: 'handler' });
    const note = await t.db
      .selectFrom('correspondence')
      .selectAll()
      .where('request_number', '=', r)
      .executeTakeFirstOrThrow();
    expect(note.body).toEqual({
      type: 'text',
      content: 'The request has been closed. (Close Reason: Completed)',
    });
    const told = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('user_id', '=', 'submitter')
      .where('type', '=', 'requestClosed')
      .execute();
    expect(told).toHaveLength(1);
  });
});
