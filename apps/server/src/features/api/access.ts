import type { FastifyReply } from 'fastify';
import { readerOf } from '../../audit/accessLog.js';
import type { DbOrTrx } from '../../db/database.js';
import type { openFile } from '../../files/service.js';
import type { AppDeps } from '../../http/deps.js';
import { HttpError, notFound } from '../../http/errors.js';
import { FILE_CONTENT_SECURITY_POLICY } from '../../http/securityHeaders.js';
import type { Actor } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';
import { loadVisibleRequest } from '../requests/index.js';

/**
 * The request, when the key's scope covers it. A request in another scope answers 404 like an
 * unknown one: a key learns nothing about requests outside its scope.
 */
export async function loadApiRequest(db: DbOrTrx, actor: Actor, requestNumber: string): Promise<RequestRow> {
  try {
    return await loadVisibleRequest(db, actor, requestNumber);
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) throw notFound('No such request.');
    throw error;
  }
}

/** An API read of a request's personal data: one access log entry, naming the key's client. */
export function logApiRead(deps: AppDeps, actor: Actor, reply: FastifyReply, requestNumber: string): void {
  deps.accessLog.record({
    reader: readerOf(actor),
    what: 'request',
    via: 'api',
    requestNumber,
    address: reply.request.ip,
  });
}

/** Content-Disposition with both a plain fallback and the UTF-8 name (RFC 6266). */
function attachment(name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams a stored file as a download; never inline, so nothing is rendered as a page of ours. */
export function sendDownload(reply: FastifyReply, opened: Awaited<ReturnType<typeof openFile>>) {
  const { file, stream } = opened;
  return reply
    .header('content-type', file.content_type)
    .header('content-length', String(file.size))
    .header('content-disposition', attachment(file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
    .header('cache-control', 'private, no-store')
    .send(stream);
}
