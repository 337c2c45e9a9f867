import { afterAll, beforeAll, expect } from 'vitest';
import { WorkflowEngine } from '../../src/features/workflow/engine.js';
import { createTestContext, createUser, signIn, type TestContext, XHR } from '../helpers.js';
import { insertTestRequest } from './requests.js';
import { PDF, post } from './resultsInvoices.js';

// The recipient's page in tests (issue 34): a request issued by email with its link and passcode
// read from the two mails, and the recipient's calls on its page.

/** Set before the file's tests, by useRecipientWorld(). */
export const world = {} as { t: TestContext; engine: WorkflowEngine };
export const cookie = {} as Record<'handler' | 'submitter', string>;
export const REFUSED =
  'This link and passcode do not open a request. Check both, or ask the sender of the letter for a new link.';

const BODY = {
  type: 'doc',
  content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Please send the records of Jane.' }] }],
};

export async function issued(method = 'email', recipient: Record<string, unknown> = {}) {
  const n = await insertTestRequest(world.t.db, { scope: '/org/acme/', submittedBy: 'submitter', recipient });
  const res = await post(world.t, cookie.handler, `/requests/${n}/actions/issueRequest`, {
    issueRequestMethod: method,
    subject: 'Request for records',
    body: BODY,
  });
  expect(res.statusCode, res.body).toBe(200);
  const mail = await world.t.db
    .selectFrom('mail_outbox')
    .select(['to', 'subject', 'text'])
    .where('request_number', '=', n)
    .orderBy('id')
    .execute();
  const token = /\/r\/([A-Za-z0-9_-]+)/.exec(mail[0]?.text ?? '')?.[1] ?? '';
  const passcode = /is: ([A-Z0-9]{8})/.exec(mail[1]?.text ?? '')?.[1] ?? '';
  return { n, token, passcode, mail };
}

export const page = (token: string, recipientCookie = '') =>
  world.t.app.inject({ url: `/r/${token}`, headers: { ...XHR, cookie: recipientCookie } });

export async function enter(token: string, passcode: string) {
  const res = await world.t.app.inject({
    method: 'POST',
    url: `/r/${token}/passcode`,
    headers: XHR,
    payload: { passcode },
  });
  const set = res.cookies.find((c) => c.name === 'dossier_recipient');
  return { res, cookie: set ? `dossier_recipient=${set.value}` : '' };
}

export const upload = (token: string, c: string, name: string, bytes = PDF, type = 'application/pdf') =>
  world.t.app.inject({
    method: 'POST',
    url: `/r/${token}/files?name=${encodeURIComponent(name)}`,
    headers: { ...XHR, cookie: c, 'content-type': type },
    payload: bytes,
  });

export const answer = (token: string, c: string, body: Record<string, unknown>) =>
  world.t.app.inject({
    method: 'POST',
    url: `/r/${token}/answers`,
    headers: { ...XHR, cookie: c },
    payload: body,
  });

/** Sets the world up before the file's tests (a handler and an Acme submitter) and closes it after. */
export function useRecipientWorld(): void {
  beforeAll(async () => {
    const t = await createTestContext();
    world.t = t;
    world.engine = new WorkflowEngine(t.db, {
      live: t.live,
      log: { warn: () => undefined },
      config: t.config,
    });
    await createUser(t.db, { id: 'handler', roles: [{ role: 'c:roles:handler', scope: '/' }] });
    await createUser(t.db, {
      id: 'submitter',
      scope: '/org/acme/',
      roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
    });
    cookie.handler = await signIn(t.app, 'handler');
    cookie.submitter = await signIn(t.app, 'submitter');
  });
  afterAll(() => world.t.close());
}
