import { createHash, randomBytes } from 'node:crypto';
import { pipeline, type Readable, Transform } from 'node:stream';
import type { DbOrTrx } from '../db/database.js';
import { badRequest, HttpError } from '../http/errors.js';
import {
  checkContent,
  type FileKind,
  hasExecutableName,
  normaliseFileName,
  refusedForKind,
} from './content.js';
import { insertReceivedFile } from './repository.js';
import type { FileStorage } from './storage.js';

// A file sent in from outside in one call (the recipient's page, issue 34): no session and no
// signed upload URL, so the checks every upload passes run here at once: the name (normalised,
// no executables), the size (the caller's limit, counted as the bytes arrive), the content sniffed
// against the declared type, and the kind of file the use takes. Only a file that passed is kept,
// already owned by what it belongs to; nothing of a refused one stays in storage.

const SNIFF_BYTES = 4100;

export interface ReceivedFile {
  key: string;
  name: string;
  contentType: string;
  size: number;
}

export async function receiveFile(
  db: DbOrTrx,
  storage: FileStorage,
  input: {
    name: string;
    contentType: string;
    body: Readable;
    maxBytes: number;
    kind: FileKind;
    owner: { type: string; id: string; classification: string };
  },
): Promise<ReceivedFile> {
  const name = normaliseFileName(input.name);
  if (!name) throw badRequest('A file name is required.', { file: 'A file name is required.' });
  if (hasExecutableName(name))
    throw badRequest('Executable files are not allowed.', { file: 'Executable files are not allowed.' });
  const key = randomBytes(16).toString('base64url');
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > input.maxBytes) {
        const limit = `The file is larger than the limit of ${Math.floor(input.maxBytes / 1048576)} MB.`;
        return done(new HttpError(413, limit, 'fileTooLarge'));
      }
      if (head.length < SNIFF_BYTES)
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await storage.write(
      key,
      pipeline(input.body, meter, () => undefined),
    );
  } catch (error) {
    await storage.remove(key).catch(() => undefined);
    if (error instanceof HttpError) throw error;
    throw badRequest('The upload was interrupted.', { file: 'The upload was interrupted.' });
  }
  const verdict = size > 0 ? await checkContent(head, input.contentType) : undefined;
  const refused = !verdict
    ? 'The file is empty.'
    : !verdict.ok
      ? verdict.reason
      : refusedForKind(input.kind, verdict.contentType);
  if (refused || !verdict?.ok) {
    await storage.remove(key).catch(() => undefined);
    const reason = refused ?? 'The file was refused.';
    throw badRequest(reason, { file: reason });
  }
  const file = { key, name, contentType: verdict.contentType, size };
  await insertReceivedFile(db, { ...file, sha256: hash.digest('hex'), owner: input.owner });
  return file;
}
