import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  createBusinessCalendar,
  createRequestNumber,
  dateInTimeZone,
  type RequestEventName,
} from '@dossier/core';
import { getPublicHolidays } from '../features/configuration/effective.js';
import { insertRecipient } from '../features/recipients/repository.js';
import { localDateTime } from '../features/tasks/requestTasks.js';
import * as fileRepo from '../files/repository.js';
import type { FileStorage } from '../files/storage.js';
import type { Db, DbOrTrx } from './database.js';
import { DEMO_ITEM_TYPES } from './seedRequests.js';
import { holdDemoRequest } from './seedRetention.js';

// A year of demo history (issue 22: with a week of data, reports, charts and KPIs looked empty):
// HISTORY_SIZE requests of Acme and Globex submitted between five weeks and a year ago, worked the
// way the service works: issued within a few business days, sometimes waiting on the sender or
// deferred, answered by the recipient after one to six weeks, quality-assured, downloaded by the
// sender (now and then a result discarded and replaced), invoiced and paid in one or two payments
// (AUD, some Globex ones in USD), and closed. Delays are counted in business days over the
// configured public holidays. A few late ones are still open or not yet issued, with their task
// overdue. Written with a handful of bulk inserts after the live demo (seedProgress.ts), so the
// demo's own recent requests stay the first in every list; applicants are their own, so no journey
// finds them by accident. Deterministic: a fixed pseudo-random sequence over the days before today.

export const HISTORY_SIZE = 320;
const TIME_ZONE = 'Australia/Sydney';

/** mulberry32: small, fast and the same on every machine. */
function sequence(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  'Ava',
  'Ethan',
  'Mia',
  'Lucas',
  'Zoe',
  'Henry',
  'Ruby',
  'Oscar',
  'Isla',
  'Leo',
  'Grace',
  'Archie',
];
const LAST = [
  'Fraser',
  'Kowalski',
  'Mendes',
  'Okafor',
  'Sato',
  'Lindqvist',
  'Brennan',
  'Haddad',
  'Novak',
  'Tran',
];
// Each with the recipient tags, Kind being required, as every recipient of a request carries them.
const RECIPIENTS = [
  {
    name: 'Bayside Family Practice',
    email: 'records@bayside.example',
    phone: '+61295550100',
    tags: { kind: 'doctor', region: 'nsw' },
  },
  {
    name: 'Royal North Shore Hospital',
    email: 'hin@rnsh.example',
    phone: '+61294630000',
    tags: { kind: 'hospital', region: 'nsw' },
  },
  {
    name: 'Westmead Imaging',
    email: 'films@westmead-imaging.example',
    phone: '+61298450000',
    tags: { kind: 'agency', region: 'nsw' },
  },
  {
    name: 'Dr Hannah Ortiz, Neurology',
    email: 'rooms@ortiz-neuro.example',
    phone: '+61733210000',
    tags: { kind: 'doctor', region: 'qld' },
  },
  {
    name: 'Eastern Physiotherapy',
    email: 'admin@easternphysio.example',
    phone: '+61394100000',
    tags: { kind: 'other', region: 'vic' },
  },
];
const ITEMS = ['itemGeneralPractice', 'itemDischargeSummary', 'itemSpecialistReport'];
const METHODS = ['bankTransfer', 'creditCard', 'cheque'] as const;
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function storePdf(db: DbOrTrx, storage: FileStorage, name: string, createdBy: string) {
  const key = randomBytes(16).toString('base64url');
  await storage.write(key, Readable.from([PDF]));
  await fileRepo.insertFile(db, {
    key,
    name,
    contentType: 'application/pdf',
    size: PDF.length,
    publicRead: false,
    createdBy,
  });
  await fileRepo.markUploaded(db, key, { size: PDF.length, sha256: null, contentType: 'application/pdf' });
  return key;
}

type Row = Record<string, unknown>;

async function insertChunks(db: DbOrTrx, table: string, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500)
    // biome-ignore lint/suspicious/noExplicitAny: one bulk writer for several tables of the seed
    await (db as any)
      .insertInto(table)
      .values(rows.slice(i, i + 500))
      .execute();
}

export async function seedDemoHistory(db: Db, storage: FileStorage, now = new Date()): Promise<void> {
  const random = sequence(20261126);
  // random() is below 1, so the index falls inside the (never empty) list.
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const calendar = createBusinessCalendar(await getPublicHolidays(db, '/'));
  const today = dateInTimeZone(now, TIME_ZONE);
  const at = (date: string, hour: number) =>
    localDateTime(
      date,
      `${String(hour).padStart(2, '0')}:${String(between(0, 59)).padStart(2, '0')}`,
      TIME_ZONE,
    );
  const later = (date: string, businessDays: number) => calendar.addBusinessDays(date, businessDays);
  const daysAgo = (n: number) => {
    const d = new Date(`${today}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() - n);
    return d.toISOString().slice(0, 10);
  };

  const orgs = [
    { scope: '/org/acme/', submitter: 'submitter', prefix: 'ACM', reference: 'POL' },
    { scope: '/org/globex/', submitter: 'globex', prefix: 'GLX', reference: 'CLM' },
  ];
  const files = await Promise.all(
    orgs.map(async (o) => ({
      authority: await storePdf(db, storage, 'authority.pdf', o.submitter),
      records: await storePdf(db, storage, 'records.pdf', 'handler'),
      invoice: await storePdf(db, storage, 'invoice.pdf', 'handler'),
    })),
  );

  // The history's recipients are in the directory, as those of the live demo are: a request names
  // the entry it was issued to.
  const directory = [];
  for (const r of RECIPIENTS) {
    const recipientId = await insertRecipient(
      db,
      {
        disabled: false,
        name: r.name,
        phone: r.phone,
        fax: null,
        email: r.email,
        webSiteUrl: null,
        streetAddress: null,
        postalAddress: null,
        country: 'AU',
        notes: null,
        tags: { kind: { value: r.tags.kind }, region: { value: r.tags.region } },
        attachments: [],
        contacts: [],
      },
      null,
      '/',
    );
    directory.push({ ...r, recipientId, version: 1 });
  }

  const requests: Row[] = [];
  const tasks: Row[] = [];
  const events: Row[] = [];
  const results: Row[] = [];
  const invoices: { row: Row; payments: Row[] }[] = [];
  // A completed task records whether it was done late, as completing one through the app does.
  const task = (row: Row) =>
    tasks.push({
      subject: `${row.type}`,
      ...row,
      was_overdue:
        row.completed_at instanceof Date && row.due_at instanceof Date ? row.completed_at > row.due_at : null,
    });
  const event = (type: RequestEventName, n: string, actor: string, when: Date, summary: string) =>
    events.push({
      type,
      aggregate_type: 'request',
      aggregate_id: n,
      actor,
      payload: JSON.stringify({ summary }),
      created_at: when,
      // History the workflow engine must not react to: it happened long ago.
      workflow_pending: false,
    });

  for (let i = 0; i < HISTORY_SIZE; i++) {
    // Two organisations, and one set of files per organisation.
    const org = orgs[i % 2]!;
    const file = files[i % 2]!;
    const age = between(36, 365);
    let submittedOn = daysAgo(age);
    if (!calendar.isBusinessDay(submittedOn)) submittedOn = later(submittedOn, 1);
    const submittedAt = at(submittedOn, between(8, 16));
    const n = createRequestNumber(org.prefix, submittedAt, random);
    const name = `${pick(FIRST)} ${pick(LAST)}-${String(i + 1).padStart(3, '0')}`;
    const recipient = pick(directory);
    const itemId = pick(ITEMS);
    const reference = `${org.reference}-${String(30000 + i)}`;
    // The last weeks' late ones: still not issued, or waiting on the recipient.
    const state = age < 45 && random() < 0.15 ? 'submitted' : age < 75 && random() < 0.3 ? 'open' : 'closed';

    const issuedOn = later(submittedOn, between(0, 3));
    const issuedAt = state === 'submitted' ? null : at(issuedOn, between(9, 16));
    task({
      type: 'issueRequest',
      subject: `Issue request ${n}`,
      scope: org.scope,
      request_number: n,
      triggered_at: submittedAt,
      due_at: at(later(submittedOn, 2), 17),
      completed_at: issuedAt,
      completed_by: issuedAt ? 'handler' : null,
      assigned_to: 'handler',
    });
    event('request.submitted', n, org.submitter, submittedAt, `Request ${n} submitted.`);

    let closedAt: Date | null = null;
    let lastActivity = issuedAt ?? submittedAt;
    if (issuedAt) {
      event('request.issued', n, 'handler', issuedAt, `Request issued to ${recipient.name} by email.`);
      let day = issuedOn;
      // Now and then the sender is asked for something (pended external), or work is deferred.
      if (random() < 0.2) {
        const askedOn = later(day, 1);
        const answeredOn = later(askedOn, between(1, 6));
        task({
          type: 'senderActionRequired',
          subject: 'Please send an authority signed in the last 12 months',
          scope: org.scope,
          request_number: n,
          triggered_at: at(askedOn, 10),
          due_at: at(later(askedOn, 3), 17),
          completed_at: at(answeredOn, 14),
          completed_by: org.submitter,
        });
        day = answeredOn;
      }
      if (random() < 0.1) {
        const deferredOn = later(day, 1);
        const resumedOn = later(deferredOn, between(2, 5));
        task({
          type: 'actionDeferred',
          subject: 'Recipient closed over the holidays; try again',
          scope: org.scope,
          request_number: n,
          triggered_at: at(deferredOn, 11),
          due_at: at(resumedOn, 9),
          completed_at: at(resumedOn, 10),
          completed_by: 'handler',
        });
        day = resumedOn;
      }
      const followUpOn = later(issuedOn, 10);
      const answeredIn = Math.round(5 + 25 * random() ** 1.5);
      const resultOn = later(day, answeredIn);
      if (state === 'open') {
        // Still waiting on the recipient: a follow-up that is overdue or due soon.
        task({
          type: 'followUp',
          subject: `Follow up with ${recipient.name}`,
          scope: org.scope,
          request_number: n,
          triggered_at: at(followUpOn, 9),
          due_at: at(later(followUpOn, between(2, 30)), 17),
          assigned_to: 'handler',
        });
      } else {
        if (followUpOn < resultOn)
          task({
            type: 'followUp',
            subject: `Follow up with ${recipient.name}`,
            scope: org.scope,
            request_number: n,
            triggered_at: at(followUpOn, 9),
            due_at: at(later(followUpOn, 2), 17),
            completed_at: at(later(followUpOn, between(0, 3)), 15),
            completed_by: 'handler',
          });
        const resultAt = at(resultOn, between(9, 15));
        const qaOn = later(resultOn, between(0, 2));
        const qaAt = at(qaOn, 16);
        task({
          type: 'qualityAssureResult',
          subject: 'Quality-assure the result',
          scope: org.scope,
          request_number: n,
          triggered_at: resultAt,
          due_at: at(later(resultOn, 1), 17),
          completed_at: qaAt,
          completed_by: 'manager',
        });
        // One result in twelve was the wrong patient's: discarded, and the right one followed.
        const replaced = random() < 1 / 12;
        if (replaced)
          results.push({
            request_number: n,
            file_key: file.records,
            created_at: resultAt,
            created_by: 'handler',
            discarded_at: qaAt,
            discarded_by: 'manager',
          });
        const downloadOn = later(qaOn, between(0, 4));
        const downloadedAt = at(downloadOn, between(9, 17));
        results.push({
          request_number: n,
          file_key: file.records,
          created_at: replaced ? at(later(qaOn, 1), 10) : resultAt,
          created_by: 'handler',
          quality_assured_at: replaced ? at(later(qaOn, 1), 12) : qaAt,
          quality_assured_by: 'manager',
          downloaded_at: downloadedAt,
          downloaded_by: org.submitter,
        });
        closedAt = at(later(downloadOn, between(0, 2)), 17);
        if (random() < 0.45) {
          const usd = org.prefix === 'GLX' && random() < 0.25;
          const exclusive = between(40, 600) * 50;
          const tax = usd ? 0 : Math.round(exclusive / 10);
          const invoiceAt = at(later(resultOn, -1), 11);
          const paidOn = later(resultOn, between(1, 8));
          const currency = usd ? 'USD' : 'AUD';
          const total = exclusive + tax;
          const split = random() < 0.15;
          const method = pick(METHODS);
          const payment = (amount: number, taxPart: number, paidAt: Date) => ({
            paid_at: paidAt,
            paid_by: 'handler',
            payee_name: recipient.name,
            payee_email: recipient.email,
            method,
            amount_exclusive_tax: amount - taxPart,
            tax: taxPart,
            amount,
            currency,
          });
          const firstTax = split ? Math.round(tax / 2) : tax;
          const first = split ? Math.round(total / 2) : total;
          const paidAt = at(paidOn, 14);
          const payments = [payment(first, firstTax, split ? at(later(resultOn, 0), 14) : paidAt)];
          if (split) payments.push(payment(total - first, tax - firstTax, paidAt));
          invoices.push({
            row: {
              request_number: n,
              file_key: file.invoice,
              amount: total,
              amount_exclusive_tax: exclusive,
              tax,
              currency,
              created_at: invoiceAt,
              created_by: 'handler',
              paid_at: paidAt,
              paid_by: 'handler',
              payment_confirmed_at: paidAt,
            },
            payments,
          });
          task({
            type: 'payInvoice',
            subject: `Pay the invoice of ${recipient.name}`,
            scope: org.scope,
            request_number: n,
            triggered_at: invoiceAt,
            due_at: at(later(resultOn, 5), 17),
            completed_at: paidAt,
            completed_by: 'handler',
          });
        }
        if (closedAt > now) closedAt = now;
        event('request.closed', n, 'handler', closedAt, 'Request closed: the records were delivered.');
        lastActivity = closedAt;
      }
    }

    requests.push({
      request_number: n,
      scope: org.scope,
      status: state,
      reference_number: reference,
      applicant: JSON.stringify({
        name,
        dateOfBirth: `19${between(45, 99)}-${String(between(1, 12)).padStart(2, '0')}-${String(between(1, 28)).padStart(2, '0')}`,
        country: 'AU',
        authority: { key: file.authority, name: 'authority.pdf' },
        reference1: reference,
        reference1Type: org.reference === 'POL' ? 'policyNumber' : 'claimNumber',
        tags: {},
      }),
      applicant_name: name,
      recipient: JSON.stringify({ ...recipient, country: 'AU', attachments: [], contacts: [] }),
      recipient_id: recipient.recipientId,
      recipient_name: recipient.name,
      content: JSON.stringify({
        itemTypes: [
          {
            id: itemId,
            // Named as the wizard names what it stores: the page and previews show the name.
            name: DEMO_ITEM_TYPES.find((e) => e.id === itemId)?.name ?? itemId,
            smartFormAnswers: {},
            excludedQuestions: [],
            submitterSuppliedFields: {},
            fieldSets: {},
            fieldSetFiles: {},
            files: [],
          },
        ],
        additionalQuestions: [],
        additionalInstructions: null,
        additionalFiles: [],
      }),
      tags: '{}',
      submitted_at: submittedAt,
      submitted_by: org.submitter,
      issued_at: issuedAt,
      issue_method: issuedAt ? 'email' : null,
      closed_at: closedAt,
      closed_by: closedAt ? 'handler' : null,
      last_updated_at: lastActivity,
      last_updated_by: closedAt || issuedAt ? 'handler' : org.submitter,
      last_activity_at: lastActivity,
    });
  }

  await db.transaction().execute(async (trx) => {
    await insertChunks(trx, 'requests', requests);
    await insertChunks(trx, 'tasks', tasks);
    await insertChunks(trx, 'events', events);
    await insertChunks(trx, 'request_results', results);
    const ids = await trx
      .insertInto('request_invoices')
      .values(invoices.map((i) => i.row) as never)
      .returning('id')
      .execute();
    await insertChunks(
      trx,
      'invoice_payments',
      // One id is returned per inserted invoice, in order.
      ids.flatMap(({ id }, k) => invoices[k]!.payments.map((p) => ({ invoice_id: id, ...p }))),
    );
  });
  await holdDemoRequest(db);
}
