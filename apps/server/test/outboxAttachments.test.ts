import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail } from '../src/mail/outbox.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { PDF, uploadPdf } from './support/resultsInvoices.js';

// Issue 20: an administrator opens what an outgoing message carries from the admin outbox. Whoever
// may read the message may open its attachments; others get what they get for the message (404).

let t: TestContext;
const USERS = ['root', 'acmeadmin', 'globexadmin', 'handler'] as const;
type User = (typeof USERS)[number];
const cookies = {} as Record<User, string>; // every user's, from beforeAll
let mailId: string;

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'root', roles: [{ role: 'c:roles:admin', scope: '/' }] });
  await createUser(t.db, {
    id: 'acmeadmin',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:admin', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexadmin',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:admin', scope: '/org/globex/' }],
  });
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  for (const id of USERS) cookies[id] = await signIn(t.app, id);
  const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
  const key = await uploadPdf(t, cookies.handler, 'letter.pdf');
  mailId = await t.db.transaction().execute((trx) =>
    enqueueMail(trx, {
      to: 'records@northside.example',
      subject: `Request ${n}`,
      text: 'The request is attached.',
      attachments: [{ fileKey: key, name: `Request ${n}.pdf`, contentType: 'application/pdf' }],
      requestNumber: n,
    }),
  );
});
afterAll(() => t.close());

const get = (url: string, as: User, headers: Record<string, string> = XHR) =>
  t.app.inject({ url, headers: { ...headers, cookie: cookies[as] } });

describe('attachments of an outgoing message', () => {
  it('are linked from the message page and open with their bytes and the name they were sent with', async () => {
    const page = await get(`/admin/outbox/${mailId}`, 'acmeadmin');
    expect(page.statusCode).toBe(200);
    const [attachment] = page.json().mail.attachments;
    expect(attachment).toMatchObject({ url: `/admin/outbox/${mailId}/attachments/0` });
    for (const who of ['root', 'acmeadmin'] as const) {
      const res = await get(attachment.url, who);
      expect(res.statusCode, who).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain(`inline; filename="${attachment.name}"`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(PDF)).toBe(true);
    }
    const download = await get(`${attachment.url}?attachment=1`, 'root');
    expect(download.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('are refused to whoever may not read the message, and a wrong index is 404 or 400', async () => {
    for (const who of ['globexadmin', 'handler'] as const) {
      const res = await get(`/admin/outbox/${mailId}/attachments/0`, who);
      expect(res.statusCode, who).toBe(who === 'handler' ? 403 : 404);
      expect(res.body).not.toContain('%PDF');
    }
    expect((await get(`/admin/outbox/${mailId}/attachments/1`, 'root')).statusCode).toBe(404);
    const bad = await get(`/admin/outbox/${mailId}/attachments/x`, 'root');
    expect(bad.statusCode).toBe(400);
    // Opened in a browser tab, a refusal is the Access Denied page, not a raw answer.
    const tab = await get(`/admin/outbox/${mailId}/attachments/0`, 'globexadmin', {});
    expect(tab.statusCode).toBe(404);
    expect(tab.headers['content-type']).toContain('text/html');
  });
});
