import type { Readable } from 'node:stream';
import {
  AMOUNT_SUM_WRONG,
  amountsAddUp,
  formatMinorUnits,
  isCurrency,
  type RecipientAnswer,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Trx } from '../../db/database.js';
import { takeRate } from '../../db/rateLimit.js';
import { receiveFile } from '../../files/received.js';
import type { AppDeps } from '../../http/deps.js';
import { badRequest, conflict, fieldsInvalid, tooManyRequests } from '../../http/errors.js';
import { getRequestSettings } from '../configuration/index.js';
import { insertCorrespondence } from '../correspondence/index.js';
import { insertInvoice } from '../invoices/index.js';
import { changePayeeFromRecipient } from '../payees/index.js';
import { RECEIVED_FILE, REQUEST_FILE_OWNER, type RequestRow, touchRequest } from '../requests/index.js';
import { insertResult } from '../results/index.js';
import { publishRequestWebhook } from '../webhooks/index.js';
import { uploadLimitBytes } from './page.js';
import * as repo from './repository.js';

// What the recipient does on the page lands on the request as a received message marked "via the
// recipient's page", from the address the link was sent to: staff's until staff deliver it, as any
// received message (senderVisibility.ts). Record files become results awaiting quality assurance,
// an invoice an invoice (the workflow raises Quality Assure Result and Pay Invoice as for results
// and invoices added by hand); the other answers are recorded for the workflow to act on
// (workflow/rules/actOnRecipientAnswer.ts).

/** Uploads per access per hour: a page left open by a person, not a script. */
const UPLOADS_PER_HOUR = 120;

export async function uploadThroughAccess(
  deps: AppDeps,
  access: repo.AccessRow,
  request: RequestRow,
  input: { name: string; contentType: string; body: Readable; ip: string },
) {
  if (!(await takeRate(deps.db, 'recipientUpload', access.id, UPLOADS_PER_HOUR, 3600)))
    throw tooManyRequests('Too many uploads. Please wait a while.', 600);
  const cap = await uploadLimitBytes(deps.db, request.scope);
  const left = cap - Number(access.uploaded_bytes);
  const full = 'The files sent through this link have reached their total limit.';
  if (left <= 0) throw badRequest(full, { file: full });
  const n = request.request_number;
  return deps.db.transaction().execute(async (trx) => {
    const file = await receiveFile(trx, deps.files.storage, {
      name: input.name,
      contentType: input.contentType,
      body: input.body,
      maxBytes: Math.min(left, deps.files.maxBytes),
      kind: 'document',
      owner: { type: REQUEST_FILE_OWNER, id: n, classification: RECEIVED_FILE },
    });
    if (!(await repo.addUploadedBytes(trx, access.id, file.size, cap))) {
      await deps.files.storage.remove(file.key).catch(() => undefined);
      throw badRequest(full, { file: full });
    }
    await recordEvent(trx, {
      type: 'request.recipientUploaded',
      aggregateType: 'request',
      aggregateId: n,
      actor: null,
      payload: {
        summary: `The recipient uploaded ${file.name} (${file.size} bytes) on the recipient's page from ${input.ip}.`,
        accessId: access.id,
        key: file.key,
        ip: input.ip,
      },
    });
    return { key: file.key, name: file.name, size: file.size };
  });
}

const ANSWER_SUBJECTS: Record<RecipientAnswer['kind'], string> = {
  records: 'Records',
  invoice: 'Invoice',
  noRecords: 'No records held',
  needMoreInformation: 'Need more information or a new authority',
  readyBy: 'Records ready by',
  message: 'Message',
};

async function takeUploads(trx: Trx, access: repo.AccessRow, keys: string[], field: string) {
  const files = [];
  for (const [i, key] of keys.entries()) {
    const file = await repo.findUploadOfAccess(trx, access.request_number, access.id, key);
    if (!file) throw fieldsInvalid({ [`${field}.${i}`]: 'Upload the file on this page first.' });
    files.push({ key: file.key, name: file.name, contentType: file.content_type });
  }
  return files;
}

async function payeeText(
  trx: Trx,
  live: AppDeps['live'],
  answer: Extract<RecipientAnswer, { kind: 'invoice' }>,
  request: RequestRow,
) {
  if (answer.payeeId) {
    const offered = await repo.listPayeesLike(trx, request.recipient.name, request.recipient.email ?? null);
    const payee = offered.find((p) => p.id === answer.payeeId);
    if (!payee) throw fieldsInvalid({ payeeId: 'Choose one of the payees offered, or enter the payee.' });
    // Other payment details than the directory's change it only the way an administrator's change
    // does: recorded, announced, and pointed out at the next payment.
    const changed = await changePayeeFromRecipient(
      trx,
      live,
      payee.id,
      answer.payee ?? {},
      request.request_number,
    );
    return `Payee: ${payee.name} (from the directory)${changed.length ? `; the recipient changed its ${changed.join(' and ')} in the directory` : ''}.`;
  }
  const p = answer.payee;
  if (!p?.name) throw fieldsInvalid({ 'payee.name': 'Enter who is to be paid.' });
  const parts = [
    p.name,
    p.referenceNumber && `reference ${p.referenceNumber}`,
    p.email,
    p.bankAccount && `bank account ${p.bankAccount}`,
  ];
  return `Payee as entered by the recipient: ${parts.filter(Boolean).join(', ')}.`;
}

/** One answer of the recipient, in the transaction that locked the request. */
export async function answerThroughAccess(
  trx: Trx,
  deps: AppDeps,
  access: repo.AccessRow,
  request: RequestRow,
  answer: RecipientAnswer,
  ip: string,
) {
  if (request.status === 'closed') throw conflict('The request is closed.');
  const n = request.request_number;
  const at = new Date();
  const lines: string[] = [];
  let attachments: { key: string; name: string; contentType: string }[] = [];
  let summary: string;
  if (answer.kind === 'records') {
    attachments = await takeUploads(trx, access, answer.files, 'files');
    summary = `The recipient sent ${attachments.length} record file${attachments.length === 1 ? '' : 's'} (${answer.complete ? 'complete' : 'partial'}) on the recipient's page from ${ip}.`;
    lines.push(
      answer.complete ? 'These are all the records.' : 'These are some of the records; more will follow.',
    );
  } else if (answer.kind === 'invoice') {
    const errors: Record<string, string> = {};
    if (!isCurrency(answer.currency)) errors.currency = 'Choose one of the currencies offered.';
    if (!amountsAddUp(answer)) errors.amount = AMOUNT_SUM_WRONG;
    if (Object.keys(errors).length > 0) throw fieldsInvalid(errors);
    attachments = await takeUploads(trx, access, [answer.file], 'file');
    lines.push(
      `Amount ${formatMinorUnits(answer.amount)} ${answer.currency} (excl. tax ${formatMinorUnits(answer.amountExclusiveTax)}, tax ${formatMinorUnits(answer.tax)}).`,
    );
    lines.push(await payeeText(trx, deps.live, answer, request));
    summary = `The recipient sent an invoice of ${formatMinorUnits(answer.amount)} ${answer.currency} on the recipient's page from ${ip}.`;
  } else if (answer.kind === 'readyBy') {
    lines.push(`The records will be ready by ${answer.date}.`);
    summary = `The recipient said the records will be ready by ${answer.date} (on the recipient's page, from ${ip}).`;
  } else if (answer.kind === 'noRecords') {
    lines.push('No records are held.');
    summary = `The recipient answered that no records are held (on the recipient's page, from ${ip}).`;
  } else if (answer.kind === 'needMoreInformation') {
    lines.push('More information or a new authority is needed.');
    summary = `The recipient needs more information or a new authority (on the recipient's page, from ${ip}).`;
  } else {
    summary = `The recipient wrote a message on the recipient's page from ${ip}.`;
  }
  if (answer.message?.trim()) lines.push(answer.message.trim());
  const from = {
    displayName: request.recipient.name,
    ...(access.method === 'email' ? { email: access.sent_to } : {}),
  };
  const correspondenceId = await insertCorrespondence(trx, {
    requestNumber: n,
    kind: 'message',
    from,
    to: null,
    subject: `${ANSWER_SUBJECTS[answer.kind]}${answer.kind === 'readyBy' ? ` ${answer.date}` : ''} (via the recipient's page)`,
    body: { type: 'text', content: lines.join('\n\n') },
    attachments,
    createdBy: null,
    createdAt: at,
    viaRecipientPage: true,
  });
  const resultIds: string[] = [];
  const invoiceIds: string[] = [];
  if (answer.kind === 'records') {
    const skipped = (await getRequestSettings(trx, request.scope))?.disableResultQualityAssurance === true;
    for (const file of attachments) {
      const resultId = await insertResult(trx, {
        requestNumber: n,
        fileKey: file.key,
        tags: {},
        createdBy: null,
        qualityAssuranceSkipped: skipped,
      });
      resultIds.push(resultId);
      await recordEvent(trx, {
        type: 'request.resultAdded',
        aggregateType: 'request',
        aggregateId: n,
        actor: null,
        payload: {
          summary: `Added a result (${file.name}) sent on the recipient's page${skipped ? '; quality assurance is skipped' : ''}.`,
          resultId,
          viaRecipientPage: true,
        },
      });
    }
  }
  if (answer.kind === 'invoice') {
    const file = attachments[0] as (typeof attachments)[number];
    const invoiceId = await insertInvoice(trx, {
      requestNumber: n,
      fileKey: file.key,
      tags: {},
      notice: lines.join('\n'),
      amount: answer.amount,
      amountExclusiveTax: answer.amountExclusiveTax,
      tax: answer.tax,
      currency: answer.currency,
      foreignReference: null,
      createdBy: null,
    });
    invoiceIds.push(invoiceId);
    await recordEvent(trx, {
      type: 'request.invoiceAdded',
      aggregateType: 'request',
      aggregateId: n,
      actor: null,
      payload: {
        summary: `Added an invoice (${file.name}) sent on the recipient's page.`,
        invoiceId,
        viaRecipientPage: true,
      },
    });
    await publishRequestWebhook(trx, deps, request, 'invoiceAdded', { requestNumber: n, invoiceId });
  }
  await recordEvent(trx, {
    type: answer.kind === 'message' ? 'request.recipientMessage' : 'request.recipientAnswered',
    aggregateType: 'request',
    aggregateId: n,
    actor: null,
    payload: {
      summary,
      accessId: access.id,
      answer: answer.kind,
      correspondenceId,
      ip,
      ...(answer.kind === 'readyBy' ? { readyBy: answer.date } : {}),
      ...(answer.message?.trim() ? { message: answer.message.trim().slice(0, 2000) } : {}),
    },
  });
  await repo.markUsed(trx, access.id, at);
  await touchRequest(trx, n, null, at);
  return { correspondenceId, resultIds, invoiceIds };
}
