import {
  formatDateTime,
  richTextFromParagraphs,
  SENDER_HIDDEN_EVENTS,
  SENDER_NOTIFICATION_TYPES,
  TRAINABLE_TASK_TYPES,
} from '@dossier/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedConfiguration } from '../src/db/seedConfiguration.js';
import { WorkflowEngine } from '../src/features/workflow/engine.js';
import { createTestContext, createUser, signIn, type TestContext } from './helpers.js';
import { addApiKey, apiToken, type TestApiKey } from './support/apiKeys.js';
import { mail, receiveInto } from './support/mail.js';
import { insertTestRequest } from './support/requests.js';
import { get, post, uploadPdf } from './support/resultsInvoices.js';
import { mailAbout, setRootEntry, tasksOf, train } from './support/workflow.js';

// Issue 23 item 3: one rule says what the sender side sees of a request (packages/core,
// requests/senderVisibility.ts). This walks every view a sender has, as a submitter and as an
// external user, over a request with a result awaiting QA, an invoice, their staff tasks, an
// unverified message and the sender's own Sender Action Required task: nothing hidden appears
// anywhere, and the sender's own task does. Issue 32 item 1 walks the same views over messages the
// recipient mails in: before any use, used as an invoice, used as a result before and after QA, and
// shared with the sender then no longer.

let t: TestContext;
let engine: WorkflowEngine;
const USERS = ['hana', 'submitter', 'advisor'] as const;
type User = (typeof USERS)[number];
const cookie = {} as Record<User, string>; // every user's, from beforeAll
let n: string;
let awaitingResult: { id: string; key: string };
let invoiceKey: string;
let senderTask: string;
const SENDERS = ['submitter', 'advisor'] as const;
const SECRET_MESSAGE = 'Unverified reply from somebody';

async function settle() {
  await engine.drain();
  await new Promise((r) => setTimeout(r, 100));
}

beforeAll(async () => {
  t = await createTestContext({ publicUrl: 'https://dossier.example' });
  await seedConfiguration(t.db, { demo: true });
  // The configuration asks to tell the sender side of every Quality Assure Result and Pay Invoice
  // task: the rule overrides it, those tasks speak of work the sender may not see.
  for (const id of ['taskQualityAssureResult', 'taskPayInvoice'])
    await setRootEntry(t.db, id, {
      notifyRequestSenderWhenTriggered: true,
      notifyExternalUsersWhenTriggered: true,
    });
  await createUser(t.db, { id: 'hana', roles: [{ role: 'c:roles:handler', scope: '/' }] });
  await train(t.db, 'hana', TRAINABLE_TASK_TYPES);
  await createUser(t.db, {
    id: 'submitter',
    scope: '/org/acme/',
    roles: [{ role: 'c:roles:submitter', scope: '/org/acme/' }],
  });
  await createUser(t.db, {
    id: 'advisor',
    roles: [{ role: 'c:roles:external', scope: '/org/acme/', externalReference: 'ADV-1' }],
  });
  for (const id of USERS) cookie[id] = await signIn(t.app, id);
  engine = new WorkflowEngine(t.db, { live: t.live, log: { warn: () => undefined }, config: t.config });

  n = await insertTestRequest(t.db, {
    scope: '/org/acme/',
    prefix: 'ACM',
    status: 'open',
    submittedBy: 'submitter',
    applicant: { name: 'Sam Sender' },
    externalUserReferences: ['ADV-1'],
  });
  const resultKey = await uploadPdf(t, cookie.hana, 'awaiting-qa.pdf');
  const added = await post(t, cookie.hana, `/requests/${n}/actions/addResult`, {
    file: { key: resultKey },
    tags: { documentType: 'Medical records' },
  });
  expect(added.statusCode, added.body).toBe(200);
  awaitingResult = { id: added.json().resultId, key: resultKey };
  invoiceKey = await uploadPdf(t, cookie.hana, 'invoice.pdf');
  const invoice = await post(t, cookie.hana, `/requests/${n}/actions/addInvoice`, {
    file: { key: invoiceKey },
    tags: { invoiceType: 'Records fee' },
  });
  expect(invoice.statusCode, invoice.body).toBe(200);
  const task = await post(t, cookie.hana, `/requests/${n}/actions/addTask`, {
    type: 'senderActionRequired',
    notice: 'Please sign the authority again.',
  });
  expect(task.statusCode, task.body).toBe(200);
  senderTask = task.json().taskId;
  const note = await post(t, cookie.hana, `/requests/${n}/actions/addNote`, {
    body: richTextFromParagraphs('We are on it.'),
  });
  expect(note.statusCode, note.body).toBe(200);
  // The newest correspondence, from an address that is not the recipient's.
  await t.db
    .insertInto('correspondence')
    .values({
      request_number: n,
      kind: 'message',
      subject: SECRET_MESSAGE,
      body: JSON.stringify({ type: 'text', content: SECRET_MESSAGE }),
      attachments: '[]',
      unverified_sender: true,
      created_at: new Date(Date.now() + 1000),
      created_by: null,
      from_address: JSON.stringify({ address: 'someone@elsewhere.example', name: 'Someone' }),
    })
    .execute();
  await settle();
  // The staff tasks the workflow raised exist, so hiding them below means something.
  const types = (await tasksOf(t.db, n)).map((x) => x.type);
  expect(types).toEqual(
    expect.arrayContaining(['qualityAssureResult', 'payInvoice', 'senderActionRequired']),
  );
}, 60_000);
afterAll(async () => {
  await engine.stop();
  await t.close();
});

const STAFF_TASKS = ['qualityAssureResult', 'payInvoice'];
const dashboard = (who: User, tile: string, query = '') =>
  get(t, cookie[who], `/dashboard/${tile}?pageSize=50${query}`);

describe.each(SENDERS)('as %s', (who) => {
  it('the Active Tasks tile lists its own Sender Action Required task and no staff task', async () => {
    for (const query of ['', '&filter.taskType=all', '&filter.taskType=senderActionRequired']) {
      const res = await dashboard(who, 'activeTasks', query);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json();
      const types = answer.items.map((i: { type: string }) => i.type);
      expect(types, query).toEqual(['senderActionRequired']);
      expect(answer.items[0].taskId).toBe(senderTask);
      expect(answer.total).toBe(1);
      expect(answer.aggregations).toEqual([
        expect.objectContaining({ key: 'senderActionRequired', count: 1 }),
      ]);
    }
    const staffType = await dashboard(who, 'activeTasks', '&filter.taskType=qualityAssureResult');
    expect(staffType.json()).toMatchObject({ items: [], total: 0 });
  });

  it('the Results tile lists no result awaiting QA; Correspondence no unverified message', async () => {
    const results = (await dashboard(who, 'results')).json();
    expect(results).toMatchObject({ items: [], total: 0, aggregations: [] });
    const mail = await dashboard(who, 'correspondence');
    expect(mail.statusCode).toBe(200);
    expect(mail.body).not.toContain(SECRET_MESSAGE);
    expect(mail.json().items.map((i: { kind: string }) => i.kind)).toEqual(['note']);
  });

  it('the request page shows its own task only, no hidden result, invoice, message or history line', async () => {
    const res = await get(t, cookie[who], `/requests/${n}`);
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view.tasks.map((x: { type: string }) => x.type)).toEqual(['senderActionRequired']);
    expect(view.tasks[0]).toMatchObject({ taskId: senderTask, canNotComplete: false });
    expect(view.recipientTasks).toEqual([]);
    expect(view.previews).toMatchObject({ tasksDue: 1, resultsAwaitingQa: 0, invoicesWaiting: 0 });
    expect(view.results).toEqual([]);
    expect(view.invoices).toEqual([]);
    expect(res.body).not.toContain(SECRET_MESSAGE);
    // Nothing of the staff tasks: neither the task nor a history line about it.
    for (const part of [view.tasks, view.recipientTasks, view.history])
      for (const type of STAFF_TASKS) expect(JSON.stringify(part)).not.toContain(type);
    const hidden = (h: { type: string; summary: string }) =>
      (SENDER_HIDDEN_EVENTS as readonly string[]).includes(h.type) ||
      /Quality Assure|Pay Invoice/.test(h.summary);
    expect(view.history.filter(hidden)).toEqual([]);
    expect(view.history.map((h: { summary: string }) => h.summary)).toContain(
      `Added the task Sender Action Required (due ${formatDateTime(new Date(view.tasks[0].dueAt), { nameZone: true })}).`,
    );
    const older = await get(t, cookie[who], `/requests/${n}/history?before=999999999`);
    expect(older.statusCode).toBe(200);
    expect(older.json().history.length).toBeGreaterThan(0);
    expect(older.json().history.filter(hidden)).toEqual([]);
    // Nor do the pages or files of what is hidden open.
    expect((await get(t, cookie[who], `/requests/${n}/results/${awaitingResult.id}`)).statusCode).toBe(403);
    expect((await get(t, cookie[who], `/files/${awaitingResult.key}`)).statusCode).toBe(403);
    expect((await get(t, cookie[who], `/files/${invoiceKey}`)).statusCode).toBe(403);
  });

  it('the hover preview shows no unverified message', async () => {
    const res = await get(t, cookie[who], `/requests/${n}/preview`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(SECRET_MESSAGE);
    expect(res.json().mostRecentCorrespondence).toMatchObject({ kind: 'note' });
  });

  it('Find Requests lists the request and nothing of its results or invoices', async () => {
    const res = await get(t, cookie[who], `/requests/search?requestNumber=${n}`);
    expect(res.json()).toMatchObject({ total: 1, hits: [{ id: n }] });
    expect(res.body).not.toMatch(/invoice|awaiting-qa|qualityAssure/i);
  });

  it('reports are refused and Download Files lists no result awaiting QA', async () => {
    for (const path of ['/reports/tasks/active', '/reports/invoices/paid', '/reports/request-results'])
      expect((await get(t, cookie[who], path)).statusCode, path).toBe(403);
    const downloads = await get(t, cookie[who], '/results/download-files');
    if (who === 'submitter') {
      expect(downloads.statusCode).toBe(200);
      expect(downloads.json().results).toEqual([]);
    } else expect(downloads.statusCode).toBe(403);
    expect(downloads.body).not.toContain('awaiting-qa');
  });
});

describe('notifications and mail of the sender side', () => {
  it('the submitter is told of its own task and the note, never of staff tasks', async () => {
    const res = await get(t, cookie.submitter, '/notifications');
    expect(res.statusCode).toBe(200);
    const told = res.json().notifications as { type: string; text: string }[];
    expect(told.some((x) => x.type === 'requestTaskAdded' && x.text.includes('Sender Action Required'))).toBe(
      true,
    );
    for (const x of told) {
      expect(SENDER_NOTIFICATION_TYPES).toContain(x.type);
      expect(x.text).not.toMatch(/Quality Assure|Pay Invoice|invoice/i);
    }
  });

  it('no mail tells the submitter or the external user of a Quality Assure Result or Pay Invoice task', async () => {
    const mail = await mailAbout(t.db, n);
    const toSender = mail.filter((m) =>
      ['submitter@test.example', 'advisor@test.example'].includes(String(m.to).toLowerCase()),
    );
    expect(toSender.map((m) => m.subject)).toEqual([`Request ${n} needs your action`]);
  });
});

describe('staff', () => {
  it('the handler still sees the staff tasks, the result awaiting QA and the unverified message', async () => {
    const tasks = (await dashboard('hana', 'activeTasks')).json();
    const types = tasks.items.map((i: { type: string }) => i.type);
    expect(types).toEqual(expect.arrayContaining(STAFF_TASKS));
    // The default type filter leaves the sender's task out of staff lists.
    expect(types).not.toContain('senderActionRequired');
    const all = (await dashboard('hana', 'activeTasks', '&filter.taskType=all')).json();
    expect(all.items.map((i: { type: string }) => i.type)).toContain('senderActionRequired');
    expect((await dashboard('hana', 'results')).json().total).toBe(1);
    expect((await dashboard('hana', 'correspondence')).body).toContain(SECRET_MESSAGE);
    const view = (await get(t, cookie.hana, `/requests/${n}`)).json();
    expect(view.tasks.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(STAFF_TASKS));
    expect(view.history.map((h: { summary: string }) => h.summary).join()).toMatch(/Quality Assure Result/);
    expect((await get(t, cookie.hana, `/requests/${n}/preview`)).body).toContain(SECRET_MESSAGE);
  });
});

describe('what the recipient mails in, through every view of the sender side (issue 32)', () => {
  let m: string;
  let apiKey: TestApiKey;
  const BODIES = {
    invoice: 'Our invoice for the records is attached.',
    result: 'The records of Sam Sender are attached.',
    plain: 'A letter about the request is attached.',
  } as const;
  type Name = keyof typeof BODIES;
  const message = {} as Record<Name, { id: string; key: string }>;

  async function mailIn(name: Name) {
    const { linkedTo } = await receiveInto(
      t,
      mail(
        { From: 'records@northside.example', Subject: `Re: Request for records ${m} (${name})` },
        BODIES[name],
        {
          name: `${name}.pdf`,
          type: 'application/pdf',
          bytes: Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n'),
        },
      ),
    );
    expect(linkedTo).toEqual([m]);
    const staff = (await get(t, cookie.hana, `/requests/${m}`)).json().correspondence as {
      messageId: string;
      subject: string;
      attachments: { key: string }[];
    }[];
    const item = staff.find((c) => c.subject.endsWith(`(${name})`));
    message[name] = { id: item?.messageId ?? '', key: item?.attachments[0]?.key ?? '' };
  }

  const staffPost = async (path: string, body: object = {}) => {
    const res = await post(t, cookie.hana, path, body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const shareWithSender = (name: Name, share: boolean) =>
    staffPost(
      `/requests/${m}/correspondence/${message[name].id}/${share ? 'share-with-sender' : 'stop-sharing-with-sender'}`,
    );

  /**
   * Every view of the sender side, as both senders and the sender's API key: whether each message's
   * body is seen, and whether its file opens; a file that does not open is listed nowhere.
   */
  async function walk(expected: Record<Name, { body: boolean; file: boolean; delivered?: boolean }>) {
    for (const who of SENDERS) {
      const page = await get(t, cookie[who], `/requests/${m}`);
      expect(page.statusCode).toBe(200);
      const view = page.json();
      expect(view.invoices).toEqual([]);
      const history = (await get(t, cookie[who], `/requests/${m}/history?before=999999999`)).body;
      const tile = (await dashboard(who, 'correspondence')).body;
      const results = (await dashboard(who, 'results')).body;
      const downloads =
        who === 'submitter' ? (await get(t, cookie[who], '/results/download-files')).body : '';
      for (const name of Object.keys(BODIES) as Name[]) {
        const { body, file, delivered } = expected[name];
        const { id, key } = message[name];
        const why = `${who}, ${name}`;
        const item = view.correspondence.find((c: { messageId: string }) => c.messageId === id);
        // That it arrived is always seen: its date, from and subject.
        expect(item, why).toMatchObject({ kind: 'message', from: { email: 'records@northside.example' } });
        expect(item.subject, why).toContain(m);
        expect(page.body.includes(BODIES[name]), why).toBe(body);
        expect(item.withheld === true, why).toBe(!body);
        expect(page.body.includes(key), why).toBe(file);
        expect((await get(t, cookie[who], `/files/${key}`)).statusCode, why).toBe(file ? 200 : 403);
        for (const other of [history, tile]) expect(other.includes(BODIES[name]), why).toBe(false);
        expect(results.includes(id), why).toBe(false);
        if (who === 'submitter') expect(downloads.includes(key), why).toBe(!!delivered);
      }
      const preview = await get(t, cookie[who], `/requests/${m}/preview`);
      const newest = preview.json().mostRecentCorrespondence;
      expect(newest.kind).toBe('message');
      const seen = (Object.keys(BODIES) as Name[]).filter((name) => expected[name].body);
      if (!seen.some((name) => newest.excerpt === BODIES[name])) expect(newest.excerpt).toBe('');
    }
    // The public API, with a key that is the sender side (a submitter's scopes): the same rule.
    for (const name of Object.keys(BODIES) as Name[]) {
      const headers = { authorization: `Bearer ${await apiToken(apiKey)}` };
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/files/${message[name].key}`, headers });
      expect(res.statusCode, `API, ${name}`).toBe(expected[name].file ? 200 : 404);
    }
  }

  beforeAll(async () => {
    m = await insertTestRequest(t.db, {
      scope: '/org/acme/',
      prefix: 'ACM',
      status: 'open',
      submittedBy: 'submitter',
      applicant: { name: 'Sam Sender' },
      externalUserReferences: ['ADV-1'],
    });
    apiKey = await addApiKey(t.db, {
      kid: 'sender-walk',
      scopePath: '/org/acme/',
      apiScopes: ['requestRead', 'fileRead'],
    });
    for (const name of Object.keys(BODIES) as Name[]) await mailIn(name);
  }, 60_000);

  const NOTHING = { body: false, file: false };

  it('before any use: that each arrived, neither body nor attachment', async () => {
    await walk({ invoice: NOTHING, result: NOTHING, plain: NOTHING });
  });

  it('used as an invoice: never, also while its message is shared', async () => {
    await staffPost(`/requests/${m}/actions/addInvoice`, {
      file: { key: message.invoice.key },
      tags: { invoiceType: 'Records fee' },
    });
    await walk({ invoice: NOTHING, result: NOTHING, plain: NOTHING });
    await shareWithSender('invoice', true);
    await walk({ invoice: { body: true, file: false }, result: NOTHING, plain: NOTHING });
    await shareWithSender('invoice', false);
  });

  it('used as a result: not before QA, also while shared; once quality-assured, delivered', async () => {
    const { resultId } = await staffPost(`/requests/${m}/actions/addResult`, {
      file: { key: message.result.key },
      tags: { documentType: 'Medical records' },
    });
    await walk({ invoice: NOTHING, result: NOTHING, plain: NOTHING });
    await shareWithSender('result', true);
    await walk({ invoice: NOTHING, result: { body: true, file: false }, plain: NOTHING });
    await staffPost(`/requests/${m}/results/${resultId}/actions/qualityAssure`, { itemTypes: [] });
    await walk({ invoice: NOTHING, result: { body: true, file: true, delivered: true }, plain: NOTHING });
    // No longer shared, the message is withheld again; the delivered result still reaches the sender.
    await shareWithSender('result', false);
    await walk({ invoice: NOTHING, result: { body: false, file: true, delivered: true }, plain: NOTHING });
  });

  it('shared with the sender, then no longer', async () => {
    const delivered = { body: false, file: true, delivered: true };
    await shareWithSender('plain', true);
    await walk({ invoice: NOTHING, result: delivered, plain: { body: true, file: true } });
    await shareWithSender('plain', false);
    await walk({ invoice: NOTHING, result: delivered, plain: NOTHING });
  });
});
