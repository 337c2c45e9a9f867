import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db, DbOrTrx } from '../../db/database.js';
import { assignTask } from '../../features/assignment/service.js';
import { closedRequestNotice, tellOfMailForClosedRequests } from '../../features/inbox/closedRequests.js';
import { INBOX_BLOCKED_FILE_OWNER, INBOX_FILE_OWNER } from '../../features/inbox/files.js';
import {
  INBOX_SCOPE,
  INBOX_TOPIC,
  isRecipientAddress,
  linkMessageToRequest,
} from '../../features/inbox/linking.js';
import * as repo from '../../features/inbox/repository.js';
import { workflowDueAt } from '../../features/tasks/due.js';
import { insertWorkflowTask } from '../../features/tasks/repository.js';
import { DEFAULT_TASK_NOTICES, taskTypeName } from '../../features/tasks/requestTasks.js';
import { checkContent, hasExecutableName } from '../../files/content.js';
import type { FileStorage } from '../../files/storage.js';
import { type LiveHub, publishTopic } from '../../live/hub.js';
import { requestNumbersIn, threadIds } from './matcher.js';
import { type ParsedIncoming, parseIncoming, unparsed } from './parse.js';
import { findMessageByMessageId, lockMessageId } from './repository.js';

// One incoming message, from the SMTP listener (or an IMAP poll): the raw bytes are stored before
// anything else is written, so whatever happens next the message is never lost; its attachments are
// stored (the dangerous ones kept but blocked), and it is matched to requests by request number or
// by reply threading. A matched message becomes correspondence of each request; an unmatched or
// flagged one waits in the inbox with a classifyIncomingMessage task, and so does one for a closed
// request, given to that request's last handler (features/inbox/closedRequests.ts). A message whose Message-ID
// was received before is not stored again (a sender retrying after a lost answer, a mailbox polled
// again after a crash).

export interface IncomingDeps {
  db: Db;
  storage: FileStorage;
  live?: LiveHub;
}

export interface Received {
  id: string;
  linkedTo: string[];
  flagReason: string | null;
  /** The Message-ID was received before: nothing was stored, `id` is the earlier message. */
  duplicate?: boolean;
}

const duplicateOf = (id: string): Received => ({ id, linkedTo: [], flagReason: null, duplicate: true });

async function storeBytes(storage: FileStorage, bytes: Buffer): Promise<{ key: string; sha256: string }> {
  const key = randomBytes(16).toString('base64url');
  await storage.write(key, Readable.from([bytes]));
  return { key, sha256: createHash('sha256').update(bytes).digest('hex') };
}

async function storeAttachments(storage: FileStorage, parsed: ParsedIncoming) {
  const stored: (repo.StoredInboxAttachment & { sha256: string })[] = [];
  for (const file of parsed.attachments.slice(0, 100)) {
    const verdict = await checkContent(file.content.subarray(0, 4100), file.contentType);
    const executable =
      hasExecutableName(file.name) || (!verdict.ok && verdict.reason.startsWith('Executable'));
    const { key, sha256 } = await storeBytes(storage, file.content);
    stored.push({
      key,
      name: file.name,
      // Content that is not what it claims is kept, but only ever offered as a download.
      contentType: verdict.ok ? verdict.contentType : 'application/octet-stream',
      size: file.content.length,
      sha256,
      ...(executable ? { blocked: true, blockedReason: 'Executable files are not allowed.' } : {}),
    });
  }
  return stored;
}

async function addClassifyTask(
  trx: DbOrTrx,
  id: string,
  label: string,
  at: Date,
  where: { scope: string; notice?: string } = { scope: INBOX_SCOPE },
): Promise<string | undefined> {
  const type = 'classifyIncomingMessage';
  return insertWorkflowTask(trx, {
    type,
    subject: `${taskTypeName(type)}: ${label}`.slice(0, 300),
    requestNumber: null,
    messageId: id,
    scope: where.scope,
    notice: where.notice ?? DEFAULT_TASK_NOTICES.classifyIncomingMessage,
    triggeredAt: at,
    triggeredBy: null,
    dueAt: await workflowDueAt(trx, where.scope, type, at),
    workflowKey: `classify:${id}`,
  });
}

/**
 * Keeps one message. `oversizeReason` is set by the listener when the message passed the size limit:
 * the raw message (as far as it was kept) is stored and flagged, and not read. `inTransaction` runs
 * in the transaction that stores the message (the IMAP poller remembers the UID there), so it
 * happens exactly when the message is stored.
 */
export async function receiveMessage(
  deps: IncomingDeps,
  raw: Buffer,
  options: {
    oversizeReason?: string | undefined;
    receivedAt?: Date;
    inTransaction?: (trx: DbOrTrx) => Promise<void>;
  } = {},
): Promise<Received> {
  const id = randomUUID();
  const receivedAt = options.receivedAt ?? new Date();
  // Parsing is pure (an unreadable message comes back flagged), so it can tell a repeat first.
  const parsed = options.oversizeReason ? unparsed(options.oversizeReason) : await parseIncoming(raw);
  const known = parsed.messageId ? await findMessageByMessageId(deps.db, parsed.messageId) : undefined;
  if (known) return duplicateOf(known);
  const rawFile = await storeBytes(deps.storage, raw);
  const attachments = await storeAttachments(deps.storage, parsed);
  const numbers = requestNumbersIn(parsed.subject, parsed.text);

  return deps.db.transaction().execute(async (trx) => {
    if (parsed.messageId) {
      // Another delivery of the same message may have been stored while this one was read.
      await lockMessageId(trx, parsed.messageId);
      const stored = await findMessageByMessageId(trx, parsed.messageId);
      if (stored) {
        for (const key of [rawFile.key, ...attachments.map((a) => a.key)])
          await deps.storage.remove(key).catch(() => undefined);
        return duplicateOf(stored);
      }
    }
    await repo.insertInboxMessage(trx, {
      id,
      messageId: parsed.messageId,
      inReplyTo: parsed.inReplyTo,
      references: parsed.references,
      from: parsed.from ?? {},
      to: parsed.to,
      subject: parsed.subject,
      bodyText: parsed.text,
      bodyHtml: parsed.html,
      receivedAt,
      rawFileKey: rawFile.key,
      rawSize: raw.length,
      flagReason: parsed.flagReason,
      attachments: attachments.map(({ sha256: _, ...a }) => a),
    });
    // Open inbox lists show it within moments (after the commit, on every instance).
    await publishTopic(trx, INBOX_TOPIC);
    await repo.insertReceivedFile(trx, {
      key: rawFile.key,
      name: `message-${id}.eml`,
      contentType: 'message/rfc822',
      size: raw.length,
      sha256: rawFile.sha256,
      ownerType: INBOX_FILE_OWNER,
      ownerId: id,
    });
    for (const file of attachments)
      await repo.insertReceivedFile(trx, {
        key: file.key,
        name: file.name,
        contentType: file.contentType,
        size: file.size,
        sha256: file.sha256,
        // Blocked files are kept for the record under an owner nobody may read through the app.
        ownerType: file.blocked ? INBOX_BLOCKED_FILE_OWNER : INBOX_FILE_OWNER,
        ownerId: id,
      });

    // A flagged message is never linked automatically: a person looks at it first.
    let targets: string[] = [];
    let threaded: string[] = [];
    if (!parsed.flagReason) {
      threaded = await repo.requestsOfSentMessages(trx, threadIds(parsed.inReplyTo, parsed.references));
      targets = [...new Set([...numbers.valid, ...threaded])];
    }
    const requests = await repo.lockRequests(trx, targets);
    const message = await repo.findInboxMessage(trx, id);
    if (!message) throw new Error('inbox message vanished');
    for (const request of requests)
      await linkMessageToRequest(trx, {
        message,
        request,
        classifications: [],
        actorId: null,
        storage: deps.storage,
        live: deps.live,
        // A reply to mail we sent is the recipient's; a number in a subject anyone can write.
        unverifiedSender:
          !threaded.includes(request.request_number) &&
          !(await isRecipientAddress(trx, request, parsed.from?.email ?? '')),
      });
    const label = parsed.subject || parsed.from?.email || 'message without subject';
    if (requests.length === 0) {
      const taskId = await addClassifyTask(trx, id, label, receivedAt);
      if (taskId) await assignTask(trx, { live: deps.live }, taskId);
    }
    // Mail for a closed request would sit unseen on it: its last handler gets the classify task.
    const closed = requests.filter((r) => r.status === 'closed');
    if (closed.length > 0) {
      const linked = await repo.findInboxMessage(trx, id);
      if (!linked) throw new Error('inbox message vanished');
      const notice = closedRequestNotice(closed.map((r) => r.request_number));
      const taskId = await addClassifyTask(trx, id, label, receivedAt, { scope: linked.scope, notice });
      if (taskId) await tellOfMailForClosedRequests(trx, deps, { message: linked, closed, taskId });
    }
    await options.inTransaction?.(trx);
    return { id, linkedTo: requests.map((r) => r.request_number), flagReason: parsed.flagReason };
  });
}
