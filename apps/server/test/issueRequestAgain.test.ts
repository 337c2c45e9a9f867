import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { insertTestRequest } from './support/requests.js';
import { get, post } from './support/resultsInvoices.js';

// Issue 20: a request once issued can be issued again (after a bounce, a wrong address, a recipient
// changed on the request), each time as a new issued letter of its own, by the handlers of the
// request only, never on a closed request nor before the first issue.

let t: TestContext;
const USERS = ['handler', 'submitter', 'globexhandler'] as const;
type User = (typeof USERS)[number];
const cookie = {} as Record<User, string>; // every user's, from beforeAll

const BODY = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please send the records of Jane.' }] }],
};

const act = (n: string, action: string, payload: Record<string, unknown> = {}, who: User = 'handler') =>
  post(t, cookie[who], `/requests/${n}/actions/${action}`, {
    issueRequestMethod: 'email',
    subject: 'Request for records',
    body: BODY,
    ...payload,
  });

const letters = (n: string) =>
  t.db
    .selectFrom('correspondence')
    .select(['id', 'to_address', 'kind', 'mail_outbox_id'])
    .where('request_number', '=', n)
    .where('kind', '=', 'issuedRequest')
    // Ids are random: the order of issue is the time of issue.
    .orderBy('created_at')
    .execute();

beforeAll(async () => {
  t = await createTestContext();
  await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'globexhandler',
    scope: '/org/globex/',
    roles: [{ role: 'c:roles:handler', scope: '/org/globex/' }],
  });
  for (const id of USERS) cookie[id] = await signIn(t.app, id);
});
afterAll(() => t.close());

describe('issueRequestAgain', () => {
  it('is offered once issued, and sends a new letter to the recipient as it now is', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/', submittedBy: 'submitter' });
    let view = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(view.actions).toContain('issueRequest');
    expect(view.actions).not.toContain('issueRequestAgain');
    const early = await act(n, 'issueRequestAgain');
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('The request has not been issued yet.');

    expect((await act(n, 'issueRequest')).statusCode).toBe(200);
    view = (await get(t, cookie.handler, `/requests/${n}`)).json();
    expect(view.actions).toContain('issueRequestAgain');
    expect(view.actions).not.toContain('issueRequest');

    // The first letter bounced: the recipient's address on the request is corrected.
    await sql`update requests set recipient = recipient || '{"email": "release@northside.example"}'::jsonb
              where request_number = ${n}`.execute(t.db);
    const again = await act(n, 'issueRequestAgain', { subject: 'Request for records (resent)' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().letter.name).toBe(`Request ${n}.pdf`);

    const issued = await letters(n);
    expect(issued).toHaveLength(2);
    expect(issued[1]?.id).toBe(again.json().messageId);
    const mail = await t.db
      .selectFrom('mail_outbox')
      .select(['to', 'subject', 'attachments'])
      .where('request_number', '=', n)
      .orderBy('id')
      .execute();
    // Each letter is followed by the passcode of its recipient's page (issue 34) in a mail of its own.
    expect(mail.map((m) => [m.to, m.subject])).toEqual([
      ['records@northside.example', 'Request for records'],
      ['records@northside.example', `Passcode for request ${n}`],
      ['release@northside.example', 'Request for records (resent)'],
      ['release@northside.example', `Passcode for request ${n}`],
    ]);
    // Each letter is a file of its own.
    const [first, second] = mail
      .filter((m) => !m.subject.startsWith('Passcode'))
      .map((m) => (m.attachments as { fileKey: string }[])[0]?.fileKey);
    expect(first).toBeDefined();
    expect(first).not.toBe(second);

    view = (await get(t, cookie.handler, `/requests/${n}`)).json();
    const summaries = view.history.map((h: { summary: string }) => h.summary);
    expect(summaries[0]).toBe(
      'Issued the request again to Northside Medical Centre by email (release@northside.example).',
    );
    expect(view.history[0].type).toBe('request.issuedAgain');
    // The sender side is told, and sees the new letter among the correspondence.
    const told = await t.db
      .selectFrom('notifications')
      .select('text')
      .where('user_id', '=', 'submitter')
      .orderBy('id')
      .execute();
    expect(told.map((x) => x.text)).toEqual([
      `Request ${n} has been issued to Northside Medical Centre.`,
      `Request ${n} has been issued again to Northside Medical Centre.`,
    ]);
    const senderView = (await get(t, cookie.submitter, `/requests/${n}`)).json();
    expect(
      senderView.correspondence.filter((c: { kind: string }) => c.kind === 'issuedRequest'),
    ).toHaveLength(2);
  });

  it('refuses bad input with the field, and changes nothing', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    expect((await act(n, 'issueRequest')).statusCode).toBe(200);
    const bad = await act(n, 'issueRequestAgain', { subject: ' ', issueRequestMethod: 'pigeon' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['issueRequestMethod', 'subject']);
    // The recipient lost its email address since: email is no way to issue it again.
    await sql`update requests set recipient = recipient || '{"email": null}'::jsonb
              where request_number = ${n}`.execute(t.db);
    const noEmail = await act(n, 'issueRequestAgain');
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().fields).toEqual({ issueRequestMethod: 'The recipient has no email address.' });
    expect(await letters(n)).toHaveLength(1);
  });

  it('is refused to submitters, to another organisation and on a closed request', async () => {
    const n = await insertTestRequest(t.db, { scope: '/org/acme/' });
    expect((await act(n, 'issueRequest')).statusCode).toBe(200);
    expect((await act(n, 'issueRequestAgain', {}, 'submitter')).statusCode).toBe(403);
    expect((await act(n, 'issueRequestAgain', {}, 'globexhandler')).statusCode).toBe(403);
    await t.db.updateTable('requests').set({ status: 'closed' }).where('request_number', '=', n).execute();
    expect((await act(n, 'issueRequestAgain')).statusCode).toBe(409);
    expect(await letters(n)).toHaveLength(1);
  });
});
