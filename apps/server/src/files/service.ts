import { createHash, randomBytes } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import type { UploadTarget } from '@dossier/core';
import type { AccessLog } from '../audit/accessLog.js';
import { readerOf } from '../audit/accessLog.js';
import type { DbOrTrx } from '../db/database.js';
import { type Actor, hasPermission } from '../http/actor.js';
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../http/errors.js';
import { accessLoggedSubject, canReadFile, fileReadRecorder } from './access.js';
import {
  checkContent,
  type FileKind,
  hasExecutableName,
  normaliseFileName,
  refusedForKind,
} from './content.js';
import * as repo from './repository.js';
import { sign, verify } from './signing.js';
import type { FileStorage } from './storage.js';

export interface FilesContext {
  db: DbOrTrx;
  storage: FileStorage;
  secret: Buffer;
  maxBytes: number;
  /** Reads of files whose owner holds personal data (a request's) are logged here. */
  accessLog?: AccessLog | undefined;
}

/** A file whose bytes retention or an erasure removed (issue 36): its row stays and says when. */
const REMOVED = 'The file was removed under the retention rules.';

/** How long an upload URL stays valid. */
const UPLOAD_URL_SECONDS = 15 * 60;
const SNIFF_BYTES = 4100;

export interface UploadRequest {
  name: string;
  contentType: string;
  contentLength: number;
  publicReadAccess: boolean;
}

export async function createUpload(
  ctx: FilesContext,
  actor: Actor,
  input: UploadRequest,
): Promise<UploadTarget> {
  const name = normaliseFileName(input.name);
  if (!name) throw badRequest('A file name is required.', { name: 'A file name is required.' });
  if (hasExecutableName(name))
    throw badRequest('Executable files are not allowed.', { name: 'Executable files are not allowed.' });
  // Public files are readable by anyone with the link, signed in or not: only configuration
  // editors make them (a logo for templates), never a request's file.
  if (input.publicReadAccess && !hasPermission(actor, 'configuration:edit'))
    throw forbidden('Only administrators may upload public files.');
  if (input.contentLength > ctx.maxBytes) {
    const limit = `The file is larger than the limit of ${Math.floor(ctx.maxBytes / 1048576)} MB.`;
    throw badRequest(limit, { contentLength: limit });
  }
  const key = randomBytes(16).toString('base64url');
  await repo.insertFile(ctx.db, {
    key,
    name,
    contentType: input.contentType,
    size: input.contentLength,
    publicRead: input.publicReadAccess,
    createdBy: actor.id,
  });
  if (ctx.storage.presignUpload) {
    const target = await ctx.storage.presignUpload({
      key,
      contentType: input.contentType,
      size: input.contentLength,
      publicRead: input.publicReadAccess,
    });
    return { key, uploadUrl: target.url, headers: target.headers };
  }
  const expires = Math.floor(Date.now() / 1000) + UPLOAD_URL_SECONDS;
  const signature = sign(ctx.secret, [key, expires, input.contentLength, input.contentType]);
  return {
    key,
    uploadUrl: `/files/upload/${key}?expires=${expires}&signature=${signature}`,
    headers: { 'content-type': input.contentType },
  };
}

/** Receives the bytes of a signed upload: size, signature, expiry and content are all checked. */
export async function receiveUpload(
  ctx: FilesContext,
  key: string,
  query: { expires: number; signature: string },
  body: Readable,
) {
  const file = await repo.findFile(ctx.db, key);
  if (!file) throw notFound();
  const declaredSize = Number(file.declared_size);
  const valid = verify(ctx.secret, [key, query.expires, declaredSize, file.content_type], query.signature);
  if (!valid || query.expires * 1000 < Date.now())
    throw new HttpError(403, 'The upload link is invalid or has expired.', 'forbidden');
  if (file.uploaded_at) throw new HttpError(409, 'This file was already uploaded.', 'conflict');

  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > declaredSize)
        return done(new HttpError(413, 'The file is larger than announced.', 'fileTooLarge'));
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  // pipeline, not pipe: when the meter refuses the bytes, the request stream is stopped too and no
  // later write can raise an 'error' event that nobody listens to (that ended the process).
  const metered = pipeline(body, meter, () => undefined);
  try {
    await ctx.storage.write(key, metered);
  } catch (error) {
    await ctx.storage.remove(key).catch(() => undefined);
    if (error instanceof HttpError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNRESET' || code === 'ABORT_ERR')
      throw badRequest('The upload was interrupted.');
    throw error;
  }
  const verdict = size === declaredSize ? await checkContent(head, file.content_type) : undefined;
  if (!verdict?.ok) {
    await ctx.storage.remove(key);
    throw badRequest(verdict ? verdict.reason : 'The file is smaller than announced.');
  }
  await repo.markUploaded(ctx.db, key, {
    size,
    sha256: hash.digest('hex'),
    contentType: verdict.contentType,
  });
  return { key, size };
}

export type FileRow = NonNullable<Awaited<ReturnType<typeof repo.findFile>>>;

/**
 * A direct upload (S3) is judged the first time the file is used: what arrived must have the
 * announced size and content, or it is removed. Answers the file, uploaded or not.
 */
async function settleDirectUpload(ctx: FilesContext, file: FileRow): Promise<FileRow> {
  if (file.uploaded_at || !ctx.storage.inspect) return file;
  const arrived = await ctx.storage.inspect(file.key, SNIFF_BYTES);
  if (!arrived) return file;
  const verdict =
    arrived.size === Number(file.declared_size)
      ? await checkContent(arrived.head, file.content_type)
      : undefined;
  if (!verdict?.ok) {
    await ctx.storage.remove(file.key);
    throw badRequest(verdict ? verdict.reason : 'The file has another size than announced.', {
      file: verdict ? verdict.reason : 'The file has another size than announced.',
    });
  }
  await repo.markUploaded(ctx.db, file.key, {
    size: arrived.size,
    sha256: null,
    contentType: verdict.contentType,
  });
  return (await repo.findFile(ctx.db, file.key)) ?? file;
}

/**
 * The file and its bytes, for someone allowed to read it. A public file is anyone's. Without a
 * session the answer is 401 whether or not the key exists (sign in first, as for any page); a
 * signed-in user gets 404 for an unknown key and 403 for a file it may not read. Keys are random
 * and unguessable, so telling that one exists gives nothing away, and the 403 carries nothing of
 * the file (no name, no owner).
 */
export async function openFile(
  ctx: FilesContext,
  actor: Actor | undefined,
  key: string,
  from?: { address?: string | undefined },
) {
  const found = await repo.findFile(ctx.db, key);
  if (!found) throw actor ? notFound('File not found.') : unauthorized();
  if (!found.public_read) {
    if (!actor) throw unauthorized();
    if (!(await canReadFile(ctx.db, actor, found))) throw forbidden('You may not read this file.');
  }
  if (found.removed_at) throw notFound(REMOVED);
  const file = await settleDirectUpload(ctx, found);
  if (!file.uploaded_at) throw notFound('File not found.');
  const stream = await ctx.storage.open(key);
  const subject = actor && file.owner_id ? accessLoggedSubject(file.owner_type, file.owner_id) : undefined;
  if (actor && subject)
    ctx.accessLog?.record({
      reader: readerOf(actor),
      what: 'file',
      via: actor.viaApi ? 'api' : 'page',
      requestNumber: subject,
      fileKey: file.key,
      address: from?.address,
    });
  const record = actor ? fileReadRecorder(file) : undefined;
  if (!actor || !record || !file.owner_id) return { file, stream };
  // The owner records the read once the last byte went into the response, and the response ends
  // only after that record is written: a refused or broken read records nothing, and a client that
  // got the whole file finds the record in place when it asks next.
  const ownerId = file.owner_id;
  const recorded = new Transform({
    transform: (chunk, _encoding, done) => done(null, chunk),
    flush: (done) => {
      record(ctx.db, actor, ownerId, { key: file.key, name: file.name }).then(() => done(), done);
    },
  });
  return { file, stream: pipeline(stream, recorded, () => undefined) };
}

/**
 * A stored file whose reading the caller's feature has already allowed (an administrator opening
 * what an outgoing message carries): 404 when it is gone or was never uploaded whole. Nothing is
 * recorded as a read of the file's owner (no one downloaded a result).
 */
export async function openAllowedFile(ctx: FilesContext, key: string) {
  const found = await repo.findFile(ctx.db, key);
  if (!found) throw notFound('File not found.');
  if (found.removed_at) throw notFound(REMOVED);
  const file = await settleDirectUpload(ctx, found);
  if (!file.uploaded_at) throw notFound('File not found.');
  return { file, stream: await ctx.storage.open(key) };
}

/**
 * Gives an upload of the actor to what it belongs to (a direct upload is judged first). Answers
 * undefined when the file is the owner's now (or was already), else why it cannot be.
 */
export async function claimFile(
  ctx: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  key: string,
  owner: { type: string; id: string; classification?: string | null | undefined },
  kind?: FileKind,
): Promise<string | undefined> {
  const found = await repo.findFile(db, key);
  if (!found) return 'The file does not exist.';
  if (found.owner_type === owner.type && found.owner_id === owner.id) return undefined;
  let file = found;
  try {
    file = await settleDirectUpload({ ...ctx, db }, found);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!file.uploaded_at) return 'The file has not been uploaded yet.';
  const refused = kind ? refusedForKind(kind, file.content_type) : undefined;
  if (refused) return refused;
  if (!(await repo.setOwner(db, key, owner, actor.id))) return 'The file is attached elsewhere.';
  return undefined;
}

/** claimFile, answering a field error when the file will not do. */
export async function attachFile(
  ctx: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  key: string,
  owner: { type: string; id: string; classification?: string | null | undefined },
  field = 'file',
  kind?: FileKind,
): Promise<void> {
  const problem = await claimFile(ctx, db, actor, key, owner, kind);
  if (problem) throw badRequest(problem, { [field]: problem });
}
