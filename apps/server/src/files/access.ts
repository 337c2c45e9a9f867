import type { DbOrTrx } from '../db/database.js';
import type { Actor } from '../http/actor.js';

// A file is readable by whoever may see what it is attached to. Each feature that attaches files
// registers how to decide that for its own kind of owner (a recipient, a request, a result...); the
// file itself is passed too, for owners whose files are not all alike (a request's invoice is
// staff business, its authority is not).

export interface OwnedFile {
  key: string;
  classification: string | null;
}

export type OwnerAccess = (db: DbOrTrx, actor: Actor, ownerId: string, file: OwnedFile) => Promise<boolean>;

const owners = new Map<string, OwnerAccess>();

export function registerFileOwner(type: string, access: OwnerAccess): void {
  owners.set(type, access);
}

export async function canReadFile(
  db: DbOrTrx,
  actor: Actor | undefined,
  file: {
    key: string;
    classification: string | null;
    public_read: boolean;
    created_by: string | null;
    owner_type: string | null;
    owner_id: string | null;
  },
): Promise<boolean> {
  if (file.public_read) return true;
  if (!actor) return false;
  if (file.created_by === actor.id) return true;
  if (!file.owner_type || !file.owner_id) return false;
  const access = owners.get(file.owner_type);
  return access ? access(db, actor, file.owner_id, file) : false;
}

// What a feature records when one of its files has been read: called once the last byte was handed
// to the response (a refused or broken read records nothing), with the reader and the file.

export type ReadRecorder = (
  db: DbOrTrx,
  actor: Actor,
  ownerId: string,
  file: { key: string; name: string },
) => Promise<void>;

const recorders = new Map<string, ReadRecorder>();

export function registerFileReadRecorder(type: string, record: ReadRecorder): void {
  recorders.set(type, record);
}

export function fileReadRecorder(file: { owner_type: string | null }): ReadRecorder | undefined {
  return file.owner_type ? recorders.get(file.owner_type) : undefined;
}

// Owners whose files hold someone's personal data (a request's: results, authorities, letters):
// every read of such a file is an entry of the access log (audit/accessLog.ts), naming the request.

const loggedOwners = new Map<string, (ownerId: string) => string>();

export function registerAccessLoggedOwner(type: string, requestNumberOf: (ownerId: string) => string): void {
  loggedOwners.set(type, requestNumberOf);
}

/** The request number a read of this owner's file is logged under, if its reads are logged. */
export function accessLoggedSubject(ownerType: string | null, ownerId: string): string | undefined {
  const of = ownerType ? loggedOwners.get(ownerType) : undefined;
  return of?.(ownerId);
}
