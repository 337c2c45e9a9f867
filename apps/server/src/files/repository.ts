import type { DbOrTrx } from '../db/database.js';

export function insertFile(
  db: DbOrTrx,
  file: {
    key: string;
    name: string;
    contentType: string;
    size: number;
    publicRead: boolean;
    createdBy: string;
  },
) {
  return db
    .insertInto('files')
    .values({
      key: file.key,
      name: file.name,
      content_type: file.contentType,
      declared_size: file.size,
      public_read: file.publicRead,
      created_by: file.createdBy,
    })
    .execute();
}

export function findFile(db: DbOrTrx, key: string) {
  return db.selectFrom('files').selectAll().where('key', '=', key).executeTakeFirst();
}

export async function markUploaded(
  db: DbOrTrx,
  key: string,
  values: { size: number; sha256: string | null; contentType: string },
) {
  const result = await db
    .updateTable('files')
    .set({
      size: values.size,
      sha256: values.sha256,
      content_type: values.contentType,
      uploaded_at: new Date(),
    })
    .where('key', '=', key)
    .where('uploaded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Gives an uploaded, not yet attached file to its owner; false when that is not possible. */
export async function setOwner(
  db: DbOrTrx,
  key: string,
  owner: { type: string; id: string; classification?: string | null | undefined },
  uploadedBy: string,
) {
  const result = await db
    .updateTable('files')
    .set({ owner_type: owner.type, owner_id: owner.id, classification: owner.classification ?? null })
    .where('key', '=', key)
    .where('uploaded_at', 'is not', null)
    .where('owner_type', 'is', null)
    .where('created_by', '=', uploadedBy)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * A file received whole (an upload checked in one call, files/received.ts; a mail or its attachment):
 * uploaded and owned at once.
 */
export async function insertReceivedFile(
  db: DbOrTrx,
  file: {
    key: string;
    name: string;
    contentType: string;
    size: number;
    sha256: string;
    owner: { type: string; id: string; classification: string | null };
  },
): Promise<void> {
  await db
    .insertInto('files')
    .values({
      key: file.key,
      name: file.name,
      content_type: file.contentType,
      declared_size: file.size,
      size: file.size,
      sha256: file.sha256,
      owner_type: file.owner.type,
      owner_id: file.owner.id,
      classification: file.owner.classification,
      created_by: null,
      uploaded_at: new Date(),
    })
    .execute();
}
