import { randomUUID } from 'node:crypto';
import { isValidRequestNumber } from '@dossier/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedDemoRequests } from '../src/db/seedRequests.js';
import { insertRequest } from '../src/features/wizard/createRepository.js';
import { createUser, type TestContext } from './helpers.js';
import { ACME, GLOBEX, submitterOf, useWizardWorld } from './wizardWorld.js';

const world = useWizardWorld();
const { call, uploadPdf, requestData } = world;
let t: TestContext;
let sam: string;
let sue: string;
let gale: string;
let handler: string;
let advisor: string;
const enc = encodeURIComponent;
beforeAll(() => {
  ({ t, sam, sue, gale, handler, advisor } = world);
});

describe('the demo seed', () => {
  it('submits twelve requests for Acme and Globex through the wizard code, once', async () => {
    await createUser(t.db, { id: 'submitter', ...submitterOf(ACME) });
    await createUser(t.db, { id: 'globex', ...submitterOf(GLOBEX) });
    await t.db.transaction().execute((trx) => seedDemoRequests(trx, t.config));
    await t.db.transaction().execute((trx) => seedDemoRequests(trx, t.config));
    const rows = await t.db.selectFrom('requests').select(['request_number', 'scope']).execute();
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r.scope === GLOBEX).every((r) => r.request_number.startsWith('GLX'))).toBe(
      true,
    );
    expect(rows.every((r) => isValidRequestNumber(r.request_number))).toBe(true);
  });
});

describe('the new-request page', () => {
  it('lists the organisations the submitter may submit for', async () => {
    const res = await call(sam, 'GET', '/requests/new');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      $type: 'newRequest',
      organizations: [{ scopePath: ACME, name: 'Acme Insurance' }],
      drafts: [],
      draft: null,
    });
  });

  it('is refused to users who may not submit', async () => {
    expect((await call(handler, 'GET', '/requests/new')).statusCode).toBe(403);
    expect((await call(handler, 'POST', '/requests', {})).statusCode).toBe(403);
  });
});

describe('drafts', () => {
  const draftId = randomUUID();

  it('opens a new draft id empty, then saves, lists, reopens and discards it', async () => {
    const fresh = (await call(sam, 'GET', `/requests/new/${draftId}?step=content`)).json();
    expect(fresh.draft).toMatchObject({ draftId, isSaved: false, completedStep: 0 });
    expect(fresh.step).toBe('sender');

    const saved = await call(sam, 'PUT', `/drafts/${draftId}`, {
      completedStep: 1,
      data: { sender: { organization: ACME }, applicant: { name: 'Jane' } },
    });
    expect(saved.statusCode).toBe(200);
    const list = (await call(sam, 'GET', '/requests/new')).json();
    expect(list.drafts).toEqual([
      expect.objectContaining({
        draftId,
        completedStep: 1,
        organizationName: 'Acme Insurance',
        applicantName: 'Jane',
      }),
    ]);
    const open = (await call(sam, 'GET', `/requests/new/${draftId}?step=applicant`)).json();
    expect(open.step).toBe('applicant');
    expect(open.draft).toMatchObject({ isSaved: true, data: { applicant: { name: 'Jane' } } });
    expect(open.senderData.requestItemCategories[0].itemTypes.map((i: { id: string }) => i.id)).toContain(
      'itemGeneralPractice',
    );
    // A new recipient's country defaults to a country the draft accepts, never the phone prefix.
    expect(open.senderData.recipient.country).toMatch(/^[A-Z]{2}$/);
    const countryDraft = randomUUID();
    const withCountry = await call(sam, 'PUT', `/drafts/${countryDraft}`, {
      completedStep: 3,
      data: {
        ...open.draft.data,
        recipient: { name: 'New Clinic', phone: '02 9000 3333', country: open.senderData.recipient.country },
      },
    });
    expect(withCountry.statusCode).toBe(200);
    await t.db.deleteFrom('request_drafts').where('id', '=', countryDraft).execute();
    // A step beyond the completed one opens the completed step.
    expect((await call(sam, 'GET', `/requests/new/${draftId}?step=submit`)).json().step).toBe('applicant');
  });

  it("refuses another user's draft and leaves it unchanged", async () => {
    expect((await call(sue, 'GET', `/requests/new/${draftId}`)).statusCode).toBe(403);
    expect((await call(sue, 'PUT', `/drafts/${draftId}`, { completedStep: 0, data: {} })).statusCode).toBe(
      403,
    );
    expect((await call(sue, 'DELETE', `/drafts/${draftId}`)).statusCode).toBe(403);
    const row = await t.db
      .selectFrom('request_drafts')
      .selectAll()
      .where('id', '=', draftId)
      .executeTakeFirst();
    expect(row).toMatchObject({ user_id: 'sam', completed_step: 1 });
  });

  it('rejects malformed drafts and ids', async () => {
    const bad = await call(sam, 'PUT', `/drafts/${draftId}`, {
      completedStep: 9,
      data: { applicant: { name: 5 } },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(
      expect.arrayContaining(['completedStep', 'data.applicant.name']),
    );
    expect((await call(sam, 'PUT', '/drafts/not-a-uuid', { data: {} })).statusCode).toBe(400);
  });

  it('discards', async () => {
    expect((await call(sam, 'DELETE', `/drafts/${draftId}`)).statusCode).toBe(200);
    expect((await call(sam, 'GET', '/requests/new')).json().drafts).toEqual([]);
  });
});

describe('sender data', () => {
  it('answers submitters, applicant defaults, recipient data and categories', async () => {
    const res = await call(sam, 'GET', `/requests/new/sender/${enc(ACME)}/data`);
    expect(res.statusCode).toBe(200);
    const data = res.json();
    expect(data.submitters.map((s: { id: string }) => s.id).sort()).toEqual(['sam', 'submitter', 'sue']);
    expect(data.applicant).toEqual({
      reference1IsRequired: false,
      reference1Type: null,
      preLoadedApplicantAuthority: null,
    });
    expect(data.recipient.tags.map((tag: { id: string }) => tag.id)).toContain('kind');
    const gp = data.requestItemCategories[0].itemTypes.find(
      (i: { id: string }) => i.id === 'itemGeneralPractice',
    );
    expect(gp.smartForm.map((q: { id: string }) => q.id)).toEqual([
      'consultationNotes',
      'period',
      'treatingDoctor',
    ]);
    expect(gp.smartForm[1].options.map((o: { name: string }) => o.name)).toEqual([
      'Last 5 years',
      'Last 10 years',
      'All records',
    ]);
    expect(gp.submitterSuppliedFields).toEqual([
      { id: 'patientId', name: 'Practice patient ID', maxLength: 20 },
    ]);
  });

  it('refuses an organisation the actor may not submit for', async () => {
    expect((await call(sam, 'GET', `/requests/new/sender/${enc(GLOBEX)}/data`)).statusCode).toBe(403);
    expect((await call(sam, 'GET', `/requests/new/sender/${enc('/org/dossier/')}/data`)).statusCode).toBe(
      403,
    );
    expect((await call(sam, 'GET', `/applicants/${enc(GLOBEX)}/search?name=jan`)).statusCode).toBe(403);
  });
});

describe('POST /requests', () => {
  it('answers 400 with the missing fields and creates nothing', async () => {
    const res = await call(sam, 'POST', '/requests', {
      sender: { organization: ACME },
      applicant: { name: '' },
      recipient: { name: 'Clinic' },
      content: { itemTypes: [], additionalQuestions: [{ text: '' }] },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual([
      'applicant.authority',
      'applicant.country',
      'applicant.dateOfBirth',
      'applicant.name',
      'content.additionalQuestions.0.text',
      'content.itemTypes',
      'recipient.phone',
    ]);
    const count = await t.db
      .selectFrom('requests')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(Number(count?.n)).toBe(12);
  });

  it('refuses too long submitter-supplied fields and unknown item types', async () => {
    const data = await requestData(sam);
    data.content.itemTypes[0]!.submitterSuppliedFields.patientId = 'x'.repeat(21);
    const res = await call(sam, 'POST', '/requests', data);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toEqual({
      'content.itemTypes.0.submitterSuppliedFields.patientId': 'At most 20 characters.',
    });
  });

  it('refuses submitting for another organisation', async () => {
    expect((await call(sam, 'POST', '/requests', await requestData(sam, GLOBEX))).statusCode).toBe(403);
  });

  let requestNumber: string;

  it('creates the request with a valid number, a new directory recipient, and deletes the draft', async () => {
    const draftId = randomUUID();
    await call(sam, 'PUT', `/drafts/${draftId}`, {
      completedStep: 4,
      data: { sender: { organization: ACME } },
    });
    const data = await requestData(sam);
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      sender: { organization: ACME, submittedOnBehalfOf: 'sue' },
      draftId,
    });
    expect(res.statusCode).toBe(200);
    requestNumber = res.json().requestNumber;
    expect(requestNumber).toMatch(/^ACM\d{6}[A-Z]{3}\d{2}$/);
    expect(isValidRequestNumber(requestNumber)).toBe(true);
    expect(res.json().location).toBe(`/requests/${requestNumber}/receipt`);

    const row = await t.db
      .selectFrom('requests')
      .selectAll()
      .where('request_number', '=', requestNumber)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      scope: ACME,
      submitted_by: 'sam',
      submitted_on_behalf_of: 'sue',
      applicant_name: 'Jane Citizen',
      recipient_name: 'Northside Clinic',
    });
    const recipient = row.recipient as { recipientId: string; version: number; phone: string };
    expect(recipient).toMatchObject({ version: 1, phone: '+61290001111' });
    const directory = await t.db
      .selectFrom('recipients')
      .selectAll()
      .where('id', '=', recipient.recipientId)
      .executeTakeFirst();
    expect(directory?.name).toBe('Northside Clinic');
    const file = await t.db
      .selectFrom('files')
      .selectAll()
      .where('key', '=', data.applicant.authority.key)
      .executeTakeFirst();
    expect(file).toMatchObject({ owner_type: 'request', owner_id: requestNumber });
    const event = await t.db
      .selectFrom('events')
      .selectAll()
      .where('aggregate_id', '=', requestNumber)
      .executeTakeFirst();
    expect(event).toMatchObject({ type: 'request.submitted', actor: 'sam' });
    expect((event?.payload as { summary?: string } | undefined)?.summary).toContain('Jane Citizen');
    expect(
      await t.db.selectFrom('request_drafts').select('id').where('id', '=', draftId).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('marks details that differ from the chosen directory entry, and staff confirm them before issuing', async () => {
    const first = await t.db
      .selectFrom('requests')
      .select('recipient')
      .where('request_number', '=', requestNumber)
      .executeTakeFirstOrThrow();
    const entry = first.recipient as { recipientId: string; version: number };
    const data = await requestData(sam);
    // The submitter picks the directory entry but sends its own address for it.
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      recipient: { ...data.recipient, ...entry, email: 'grab@evil.example', directoryDifferences: {} },
    });
    expect(res.statusCode).toBe(200);
    const n = res.json().requestNumber;
    const view = (await call(handler, 'GET', `/requests/${n}`)).json();
    expect(view.request.recipient.directoryDifferences).toEqual({
      email: { directory: data.recipient.email ?? null, request: 'grab@evil.example' },
    });
    const issue = (extra: object) =>
      call(handler, 'POST', `/requests/${n}/actions/issueRequest`, {
        issueRequestMethod: 'email',
        subject: 'Request',
        body: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please.' }] }] },
        ...extra,
      });
    const refused = await issue({});
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.confirmRecipientDetails).toContain('email');
    expect(
      await t.db.selectFrom('mail_outbox').select('id').where('to', '=', 'grab@evil.example').execute(),
    ).toEqual([]);
    expect((await issue({ confirmRecipientDetails: true })).statusCode).toBe(200);
    const confirmed = await t.db
      .selectFrom('events')
      .select(['type', 'actor'])
      .where('aggregate_id', '=', n)
      .where('type', '=', 'request.recipientDetailsConfirmed')
      .execute();
    expect(confirmed).toEqual([{ type: 'request.recipientDetailsConfirmed', actor: 'handler' }]);
  });

  it('takes only a PDF or an image as the authority, and only documents as request files', async () => {
    const html = Buffer.from('<html><body>Sign here</body></html>');
    const announced = await call(sam, 'POST', '/files', {
      name: 'authority.html',
      contentType: 'text/html',
      contentLength: html.length,
    });
    const { key, uploadUrl } = announced.json();
    const put = await t.app.inject({
      method: 'PUT',
      url: uploadUrl,
      headers: { 'content-type': 'text/html' },
      payload: html,
    });
    expect(put.statusCode).toBe(200);
    const data = await requestData(sam);
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      applicant: { ...data.applicant, authority: { key, name: 'authority.html' } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields['applicant.authority']).toBe('This field takes a PDF or an image.');
    const extra = await call(sam, 'POST', '/requests', {
      ...data,
      content: { ...data.content, additionalFiles: [{ key, name: 'notes.html' }] },
    });
    expect(extra.json().fields['content.additionalFiles.0']).toBe(
      'This field takes a PDF, an image, an office document or plain text.',
    );
  });

  it('refuses an on-behalf-of user who may not submit for the organisation', async () => {
    const data = await requestData(sam);
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      sender: { organization: ACME, submittedOnBehalfOf: 'gale' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty(['sender.submittedOnBehalfOf']);
  });

  it('finds the applicant again, and recipients for submitters', async () => {
    const hits = (await call(sue, 'GET', `/applicants/${enc(ACME)}/search?name=citiz`)).json();
    expect(hits.hits).toHaveLength(1);
    expect(hits.hits[0].item).toMatchObject({
      name: 'Jane Citizen',
      dateOfBirth: '1980-02-29',
      reference1: 'JC-REF-1',
    });
    expect(hits.hits[0].item.authority).toBeUndefined();
    const byDob = (await call(sue, 'GET', `/applicants/${enc(ACME)}/search?dateOfBirth=1980-02-29`)).json();
    expect(byDob.total).toBe(1);
    const byRef = (await call(sue, 'GET', `/applicants/${enc(ACME)}/search?reference=jc-ref`)).json();
    expect(byRef.total).toBe(1);
    // Globex's search never sees Acme's applicants.
    expect((await call(gale, 'GET', `/applicants/${enc(GLOBEX)}/search?name=citiz`)).json().total).toBe(0);
    const recipients = (await call(sam, 'GET', '/recipients/search?name=northside')).json();
    expect(recipients.hits[0].item).toMatchObject({
      name: 'Northside Clinic',
      version: 1,
      phone: '+61290001111',
    });
  });

  it("refuses another user's upload as the authority and leaves nothing behind", async () => {
    const before = await t.db
      .selectFrom('recipients')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    const data = await requestData(sam);
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      recipient: { name: 'Brand New Clinic', phone: '02 9000 2222', tags: { kind: 'hospital' } },
      applicant: { ...data.applicant, authority: await uploadPdf(sue, 'sues.pdf') },
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['applicant.authority']);
    const after = await t.db
      .selectFrom('recipients')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst();
    expect(after?.n).toBe(before?.n);
    expect(
      await t.db
        .selectFrom('requests')
        .select('request_number')
        .where('recipient_name', '=', 'Brand New Clinic')
        .execute(),
    ).toEqual([]);
  });

  it('takes a new recipient with only a name and a phone; the directory asks its required Kind later', async () => {
    const data = await requestData(sam);
    const res = await call(sam, 'POST', '/requests', {
      ...data,
      recipient: { name: 'Kindless Clinic', phone: '02 9000 4444', country: 'Australia' },
    });
    expect(res.statusCode).toBe(200);
    const added = await t.db
      .selectFrom('recipients')
      .select(['id', 'tags'])
      .where('name', '=', 'Kindless Clinic')
      .executeTakeFirstOrThrow();
    expect(added.tags).toEqual({});
  });

  it('tries another number when one is taken', async () => {
    const row = await t.db.selectFrom('requests').selectAll().limit(1).executeTakeFirstOrThrow();
    const again = {
      requestNumber: row.request_number,
      scope: row.scope,
      submittedBy: 'sam',
      submittedOnBehalfOf: null,
      referenceNumber: null,
      externalUserReferences: [],
      applicant: row.applicant as never,
      recipient: row.recipient as never,
      content: row.content as never,
      tags: {},
      submittedAt: new Date(),
    };
    expect(await insertRequest(t.db, again)).toBe(false);
  });

  it('answers nothing to an applicant search without terms, and refuses the directory to other users', async () => {
    expect((await call(sam, 'GET', `/applicants/${enc(ACME)}/search`)).json()).toMatchObject({
      hits: [],
      total: 0,
    });
    expect((await call(advisor, 'GET', '/recipients/search?name=north')).statusCode).toBe(403);
    expect((await call(handler, 'GET', '/recipients/search?name=north')).statusCode).toBe(200);
  });

  it('shows the receipt to the organisation, not to another organisation', async () => {
    const receipt = await call(sue, 'GET', `/requests/${requestNumber}/receipt`);
    expect(receipt.statusCode).toBe(200);
    expect(receipt.json()).toMatchObject({
      $type: 'requestReceipt',
      requestNumber,
      applicant: { name: 'Jane Citizen' },
      recipient: { name: 'Northside Clinic' },
      itemTypes: [{ id: 'itemGeneralPractice', name: 'Medical records — general practice' }],
      requestPath: `/requests/${requestNumber}`,
    });
    expect((await call(gale, 'GET', `/requests/${requestNumber}/receipt`)).statusCode).toBe(403);
    expect((await call(gale, 'GET', '/requests/ACM251122AAA00/receipt')).statusCode).toBe(404);
  });
});
