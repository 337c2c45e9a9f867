import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { DbOrTrx } from '../../../db/database.js';
import * as fileRepo from '../../../files/repository.js';
import type { FilesContext } from '../../../files/service.js';
import type { Actor } from '../../auth/index.js';
import { REQUEST_FILE_OWNER } from '../files.js';

/**
 * Stores a file the server made (a request letter) as a file of the request, readable by whoever
 * may see the request. The bytes are written first: if the transaction rolls back, an unreferenced
 * blob is left in storage, never a file row without bytes.
 */
export async function storeGeneratedRequestFile(
  files: FilesContext,
  db: DbOrTrx,
  actor: Actor,
  requestNumber: string,
  file: { name: string; contentType: string; bytes: Uint8Array; classification?: string },
): Promise<{ key: string; name: string; contentType: string }> {
  const key = randomBytes(16).toString('base64url');
  await files.storage.write(key, Readable.from([Buffer.from(file.bytes)]));
  await fileRepo.insertFile(db, {
    key,
    name: file.name,
    contentType: file.contentType,
    size: file.bytes.length,
    publicRead: false,
    createdBy: actor.id,
  });
  await fileRepo.markUploaded(db, key, {
    size: file.bytes.length,
    sha256: null,
    contentType: file.contentType,
  });
  await fileRepo.setOwner(
    db,
    key,
    { type: REQUEST_FILE_OWNER, id: requestNumber, classification: file.classification ?? null },
    actor.id,
  );
  return { key, name: file.name, contentType: file.contentType };
}
