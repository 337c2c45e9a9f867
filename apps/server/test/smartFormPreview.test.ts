import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { configurationCalls, createConfigurationPeople, entryBody } from './support/configuration.js';

// The smart-form editor's PDF preview (of the saved form, of the form being edited, of any length)
// and reading the field names of an uploaded PDF form; configuration editors only.

let t: TestContext;
let admin: string;
let submitter: string;

beforeAll(async () => {
  t = await createTestContext();
  ({ admin, submitter } = await createConfigurationPeople(t, { demo: true }));
});
afterAll(() => t.close());

const { get, post } = configurationCalls(
  () => t,
  () => admin,
);
const entry = entryBody;

describe('the smart form preview and PDF form fields', () => {
  const form = {
    smartForm: [
      {
        id: 'seen',
        richText: {
          type: 'doc',
          content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Seen a GP?' }] }],
        },
        answerType: 'yesOrNo',
        nestedForm: [
          {
            id: 'visits',
            condition: 'parentIsYes',
            richText: {
              type: 'doc',
              content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Visits' }] }],
            },
            answerType: 'table',
            tableColumns: [{ id: 'date', name: 'Date', answerType: 'yearMonthAndDate' }],
          },
        ],
      },
    ],
  };
  it('renders the form being edited as a PDF', async () => {
    const url = `/files/SMARTFORM?formId=gp&configurationId=orgAcme&previewPdf=false&formData=${encodeURIComponent(JSON.stringify(form))}`;
    const res = await t.app.inject({ url, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = await PDFDocument.load(res.rawPayload);
    expect(pdf.getPageCount()).toBe(1);
    expect((await t.app.inject({ url, headers: { cookie: submitter } })).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          url: '/files/SMARTFORM?formId=nope&configurationId=root',
          headers: { cookie: admin },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('renders a posted form of any length as on the screen, titled with the typed name', async () => {
    const long = {
      ...form,
      smartForm: Array.from({ length: 60 }, (_, i) => ({
        id: `q${i}`,
        richText: {
          type: 'doc',
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: `Question ${i} ${'x'.repeat(200)}` }] },
          ],
        },
        answerType: 'freeText',
      })),
    };
    const formData = JSON.stringify(long);
    expect(formData.length).toBeGreaterThan(8000);
    // A plain form post from this host (the editor's Preview button), without X-Requested-With.
    const res = await t.app.inject({
      method: 'POST',
      url: '/files/SMARTFORM',
      headers: {
        cookie: admin,
        origin: 'http://localhost:80',
        host: 'localhost:80',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: new URLSearchParams({
        formId: 'gp',
        configurationId: 'orgAcme',
        name: 'GP records',
        formData,
      }).toString(),
    });
    expect(res.statusCode).toBe(200);
    const pdf = await PDFDocument.load(res.rawPayload);
    expect(pdf.getTitle()).toBe('GP records');
    expect(pdf.getPageCount()).toBeGreaterThan(1);
    // From another site it is refused; bad form data is a 400, never a 500.
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/files/SMARTFORM',
      headers: { cookie: admin, origin: 'https://evil.example', host: 'localhost:80' },
      payload: { formId: 'gp', configurationId: 'orgAcme', formData },
    });
    expect(foreign.statusCode).toBe(403);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/files/SMARTFORM',
      headers: { ...XHR, cookie: admin },
      payload: { formId: 'gp', configurationId: 'orgAcme', formData: '{' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toEqual({ formData: 'Not JSON.' });
    const outsider = await t.app.inject({
      method: 'POST',
      url: '/files/SMARTFORM',
      headers: { ...XHR, cookie: submitter },
      payload: { formId: 'gp', configurationId: 'orgAcme', formData },
    });
    expect(outsider.statusCode).toBe(403);
  });

  it('reads the field names of an uploaded PDF', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    doc.getForm().createTextField('applicant.name').addToPage(page, { x: 10, y: 10 });
    doc.getForm().createCheckBox('consent').addToPage(page, { x: 10, y: 60 });
    const bytes = Buffer.from(await doc.save());
    const announced = await post('/files', {
      name: 'form.pdf',
      contentType: 'application/pdf',
      contentLength: bytes.length,
    });
    const { key, uploadUrl } = announced.json();
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: uploadUrl,
          headers: { 'content-type': 'application/pdf' },
          payload: bytes,
        })
      ).statusCode,
    ).toBe(200);
    const res = await get(`/files.pdf.fields/${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().fields.map((f: { name: string }) => f.name)).toEqual(['applicant.name', 'consent']);

    // Saved in an item type, the form belongs to the configuration: other administrators read it.
    await createUser(t.db, { id: 'root2', roles: [{ role: 'c:roles:admin', scope: '/' }] });
    const other = await signIn(t.app, 'root2');
    expect((await get(`/files.pdf.fields/${key}`, other)).statusCode).toBe(403);
    const saved = await post(
      '/admin/configuration/edit/root/authority',
      entry('Authority', { form: { key, name: 'form.pdf' } }, { type: 'requestItemTypeEntry' }),
    );
    expect(saved.statusCode).toBe(200);
    expect((await get(`/files.pdf.fields/${key}`, other)).statusCode).toBe(200);
    expect((await get(`/files.pdf.fields/${key}`, submitter)).statusCode).toBe(403);
    const stolen = await post(
      '/admin/configuration/edit/orgAcme/stolen',
      entry('Stolen', { form: { key: 'x'.repeat(22) } }, { type: 'requestItemTypeEntry' }),
    );
    expect(stolen.json().fields).toHaveProperty('data.form');
  });
});
