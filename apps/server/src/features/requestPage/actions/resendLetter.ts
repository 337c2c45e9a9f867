import { ISSUE_REQUEST_ADDRESS_MISSING, issueRequestAddress, richTextFromParagraphs } from '@dossier/core';
import type { Trx } from '../../../db/database.js';
import { conflict } from '../../../http/errors.js';
import { enqueueMail, newMessageId } from '../../../mail/outbox.js';
import { insertCorrespondence } from '../../correspondence/index.js';
import {
  createRecipientAccess,
  recordAccessSent,
  setAccessCorrespondence,
} from '../../recipientAccess/index.js';
import {
  loadLetterContext,
  PASSCODE_LETTER_FILE,
  renderLetterOf,
  storeGeneratedRequestFile,
} from '../../requests/index.js';
import type { RequestActionContext } from './context.js';
import { faxAddress, mailAddress, mailDomain } from './issueRequest.js';

// Re-send of the recipient's link for a request issued by fax or post (issue 34): the same way, a
// new letter with the new link and passcode both printed (as issuing prints them), to the
// recipient's fax number or postal address as issuing again would use. By fax it goes to the
// fax gateway at once; by post it waits to be printed. The record of the letter (correspondence)
// never holds the passcode, and the fax's text in the outbox keeps it only until it is sent.

export async function resendByLetter(
  trx: Trx,
  { deps, actor, request }: RequestActionContext,
  method: 'faxNumber' | 'postal',
) {
  const n = request.request_number;
  const context = await loadLetterContext(trx, deps.config, actor, request);
  const to = issueRequestAddress(method, context.recipient);
  if (!to) throw conflict(`${ISSUE_REQUEST_ADDRESS_MISSING[method]} Issue the request again another way.`);
  const at = new Date();
  const access = await createRecipientAccess(trx, deps.config, {
    request,
    method,
    sentTo: to,
    createdBy: actor.id,
    at,
  });
  if (!access) throw conflict("The recipient's page is turned off in the request settings.");
  const subject = `Answer request ${n} online`;
  const paragraphs = (passcode: string) => [
    `Dear ${context.recipient.name},`,
    `You can answer request ${n} from ${context.senderName} online at ${access.url} with the passcode ${passcode}.`,
    'The links and passcodes sent before this letter no longer work. You can still reply by mail, fax or post, quoting the request number.',
  ];
  const text = paragraphs(access.passcode).join('\n\n');
  const recorded = paragraphs('(printed in the letter)');
  const pdf = await renderLetterOf(context, { date: at, subject, body: text, particularsOnly: true });
  const letter = await storeGeneratedRequestFile(deps.files, trx, actor, n, {
    name: `Link to answer request ${n}.pdf`,
    contentType: 'application/pdf',
    bytes: pdf,
    // Printed with the passcode: never the sender side's to read.
    classification: PASSCODE_LETTER_FILE,
  });
  const attachment = { fileKey: letter.key, name: letter.name, contentType: letter.contentType };
  let outboxId: string | null = null;
  let messageId: string | null = null;
  if (method === 'faxNumber') {
    messageId = newMessageId(mailDomain(deps.config.mail.from));
    outboxId = await enqueueMail(trx, {
      to: faxAddress(deps.config.mail.faxGatewayAddress, to),
      subject,
      text,
      attachments: [attachment],
      messageId,
      requestNumber: n,
      textAfterSend: recorded.join('\n\n'),
    });
  }
  const correspondenceId = await insertCorrespondence(trx, {
    requestNumber: n,
    kind: 'issuedRequest',
    issueRequestMethod: method,
    from: { displayName: context.senderName, email: mailAddress(deps.config.mail.from) },
    to: {
      displayName: context.recipient.name,
      ...(method === 'faxNumber' ? { phone: to } : { postalAddress: to }),
    },
    subject,
    body: { type: 'richText', content: richTextFromParagraphs(...recorded) },
    attachments: [{ key: letter.key, name: letter.name, contentType: letter.contentType }],
    messageId,
    mailOutboxId: outboxId,
    messageDeliveryStatus: method === 'postal' ? 'printReady' : 'queued',
    createdBy: actor.id,
    createdAt: at,
  });
  await setAccessCorrespondence(trx, access.accessId, correspondenceId);
  await recordAccessSent(trx, n, actor.id, access, method, to, true);
  return { accessId: access.accessId };
}
