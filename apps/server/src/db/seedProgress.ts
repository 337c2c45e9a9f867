import { richTextFromParagraphs } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { FileStorage } from '../files/storage.js';
import type { LiveHub } from '../live/hub.js';
import { receiveMessage } from '../mail/incoming/receive.js';
import type { Db } from './database.js';

const DEMO_FAX = '+61290001112';

// The demo's requests in every state, so a person opening the demo finds something on every
// dashboard tile and in the inbox: Globex's six requests are worked as a handler would, through the
// app's own routes, right after the first start (issued, results added and quality-assured, invoices
// added and paid, notes, closed), and two mails arrive, one answering a request and one unmatched.
// Being real use, it leaves what real use leaves: events, workflow tasks, mail in the outbox. Acme's
// six stay as submitted, for whoever tries the wizard and the request actions on them.

const XHR = { 'x-requested-with': 'XMLHttpRequest' };
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

type Call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => Promise<unknown>;

async function signedInCaller(app: FastifyInstance, user: string, password: string): Promise<Call> {
  const signin = await app.inject({
    method: 'POST',
    url: '/signin',
    headers: XHR,
    payload: { username: user, password },
  });
  const cookie = signin.cookies.find((c) => c.name === 'dossier_session');
  if (signin.statusCode !== 200 || !cookie) throw new Error(`demo sign-in answered ${signin.statusCode}`);
  return async (method, url, payload) => {
    const res = await app.inject({
      method,
      url,
      headers: { ...XHR, cookie: `dossier_session=${cookie.value}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
    return res.body ? res.json() : undefined;
  };
}

async function upload(app: FastifyInstance, call: Call, name: string): Promise<string> {
  const { key, uploadUrl } = (await call('POST', '/files', {
    name,
    contentType: 'application/pdf',
    contentLength: PDF.length,
    publicReadAccess: false,
  })) as { key: string; uploadUrl: string };
  const put = await app.inject({
    method: 'PUT',
    url: uploadUrl,
    headers: { 'content-type': 'application/pdf' },
    payload: PDF,
  });
  if (put.statusCode !== 200) throw new Error(`demo upload answered ${put.statusCode}`);
  return key;
}

function mail(input: { from: string; subject: string; text: string; attachment?: string }): Buffer {
  const boundary = 'demo-boundary';
  const lines = [
    `From: ${input.from}`,
    'To: inbox@dossier.localhost',
    `Subject: ${input.subject}`,
    `Date: ${new Date().toUTCString()}`,
    `Message-ID: <${Date.now()}.${Math.random().toString(36).slice(2)}@demo.example>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    input.text,
  ];
  if (input.attachment) {
    lines.push(
      `--${boundary}`,
      `Content-Type: application/pdf; name="${input.attachment}"`,
      `Content-Disposition: attachment; filename="${input.attachment}"`,
      'Content-Transfer-Encoding: base64',
      '',
      PDF.toString('base64'),
    );
  }
  lines.push(`--${boundary}--`, '');
  return Buffer.from(lines.join('\r\n'));
}

export async function progressDemoRequests(
  app: FastifyInstance,
  deps: { db: Db; storage: FileStorage; live?: LiveHub },
  handlerPassword: string,
): Promise<void> {
  const call = await signedInCaller(app, 'handler', handlerPassword);
  const globex = await deps.db
    .selectFrom('requests')
    .select(['request_number', 'content'])
    .where('scope', '=', '/org/globex/')
    .orderBy('submitted_at')
    .execute();
  const [closedPaid, closedFax, awaitingQa, withNote, issued] = globex.map((r) => r.request_number);
  const action = (n: string, name: string, body: unknown) =>
    call('POST', `/requests/${n}/actions/${name}`, body) as Promise<Record<string, string>>;
  const issue = (n: string, method: 'email' | 'faxNumber') =>
    action(n, 'issueRequest', {
      issueRequestMethod: method,
      subject: `Request for records ${n}`,
      body: richTextFromParagraphs('Please provide the records described in the attached request.'),
      // A fax goes to a fax number only: the faxed request's recipient gave one, which the handler
      // confirmed with it (its directory entry has none).
      ...(method === 'faxNumber' ? { confirmRecipientDetails: true } : {}),
    });
  /** The recipient of a request gives a fax number (the demo's directory has none). */
  const withFax = (n: string) =>
    sql`update requests set recipient = jsonb_set(recipient, '{fax}', to_jsonb(${DEMO_FAX}::text))
        where request_number = ${n} and coalesce(recipient ->> 'fax', '') = ''`.execute(deps.db);
  const addResult = async (n: string) => {
    const key = await upload(app, call, `records-${n}.pdf`);
    const { resultId } = await action(n, 'addResult', {
      file: { key },
      tags: { documentType: 'Medical records' },
    });
    if (!resultId) throw new Error(`Seeding: adding a result to ${n} answered no resultId.`);
    return resultId;
  };
  // QA confirms which of the requested item types the result covers: here, all of them.
  const itemTypesOf = (n: string) => {
    const content = globex.find((r) => r.request_number === n)?.content as
      | { itemTypes?: { id: string }[] }
      | undefined;
    return (content?.itemTypes ?? []).map((i) => i.id);
  };
  const qualityAssure = (n: string, resultId: string) =>
    call('POST', `/requests/${n}/results/${resultId}/actions/qualityAssure`, { itemTypes: itemTypesOf(n) });
  const addInvoice = async (n: string) => {
    const key = await upload(app, call, `invoice-${n}.pdf`);
    return (
      await action(n, 'addInvoice', {
        file: { key },
        tags: { invoiceType: 'Records fee' },
        amountExclusiveTax: 6000,
        tax: 600,
        amount: 6600,
        currency: 'AUD',
      })
    ).invoiceId;
  };
  const close = (n: string) => action(n, 'closeRequest', { tags: { closeReason: 'Completed' } });

  if (closedPaid) {
    await issue(closedPaid, 'email');
    await qualityAssure(closedPaid, await addResult(closedPaid));
    const invoiceId = await addInvoice(closedPaid);
    await call('POST', `/requests/${closedPaid}/invoices/${invoiceId}/actions/pay`, {
      payeeName: 'Sydney City Hospital',
      method: 'bankTransfer',
      bankAccount: '062-000 1234 5678',
      amountExclusiveTax: 6000,
      tax: 600,
      amount: 6600,
      currency: 'AUD',
    });
    await close(closedPaid);
  }
  if (closedFax) {
    await withFax(closedFax);
    await issue(closedFax, 'faxNumber');
    await qualityAssure(closedFax, await addResult(closedFax));
    await close(closedFax);
  }
  if (awaitingQa) {
    await issue(awaitingQa, 'email');
    await addResult(awaitingQa);
    await addInvoice(awaitingQa);
  }
  if (withNote) {
    await issue(withNote, 'email');
    await action(withNote, 'addNote', {
      body: richTextFromParagraphs('Called the practice: the records are being copied, expected next week.'),
    });
    await receiveMessage(
      deps,
      mail({
        from: 'Records Officer <records@harbourside.example>',
        subject: `Re: Request for records ${withNote}`,
        text: `We have received request ${withNote} and will send the records within ten business days.`,
      }),
    );
  }
  if (issued) await issue(issued, 'email');
  // A mail no request number matches: it waits in the inbox for someone to link it.
  await receiveMessage(
    deps,
    mail({
      from: 'St Vincent Private Hospital <hin@stvincent.example>',
      subject: 'Records as requested',
      text: 'Please find attached the discharge summary you asked for. Kind regards, Health Information.',
      attachment: 'discharge-summary.pdf',
    }),
  );
}
