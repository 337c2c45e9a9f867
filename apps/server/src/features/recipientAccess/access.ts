import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import {
  DEFAULT_RECIPIENT_ACCESS_DAYS,
  RECIPIENT_ACCESS_REFUSED,
  RECIPIENT_PASSCODE_LENGTH,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import { type AppAddress, appUrlOf, type RecipientLinkKeys } from '../../config.js';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import { countRate, takeRate } from '../../db/rateLimit.js';
import { fieldsInvalid, tooManyRequests } from '../../http/errors.js';
import { hashPassword, verifyPassword } from '../auth/index.js';
import { getRequestSettings } from '../configuration/index.js';
import { findRequest, type RequestRow } from '../requests/index.js';
import * as repo from './repository.js';
import { sealSecrets } from './seal.js';

// A recipient access (issue 34): one per issue of a request. The link's token has 192 random bits
// and is kept as its SHA-256; the passcode (8 characters of an alphabet without look-alikes) as
// argon2id, since 8 characters are few enough to try offline against a plain hash. An access works
// until the request closes, it expires, is revoked, or is locked by 5 wrong passcodes within 15
// minutes (until staff re-send, which makes a new one). Every way it does not work answers the
// same, whether the link or the passcode was wrong. Both are also kept sealed (seal.ts) under the
// key of the configuration, for the reminders (reminder.ts) to print again.

const PASSCODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const WRONG_PASSCODES_ALLOWED = 5;
const WRONG_PASSCODE_WINDOW_SECONDS = 15 * 60;
/** Wrong tries per address, over every link: a wrong link costs as a wrong passcode does. */
const WRONG_TRIES_PER_ADDRESS = 30;
const IP_BUCKET = 'recipientPasscode.ip';
export const RECIPIENT_SESSION_IDLE_MINUTES = 30;
export const RECIPIENT_COOKIE = 'dossier_recipient';

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function newPasscode(): string {
  let code = '';
  for (let i = 0; i < RECIPIENT_PASSCODE_LENGTH; i++)
    code += PASSCODE_ALPHABET[randomInt(PASSCODE_ALPHABET.length)];
  return code;
}

/** The passcode as typed: case and spaces do not matter. */
const normalisePasscode = (typed: string) => typed.replace(/[\s-]/g, '').toUpperCase();

/** The app's address and the keys sealing the links. */
export type RecipientLinkConfig = AppAddress & { recipientLinkKeys?: RecipientLinkKeys | undefined };

export const recipientUrl = (config: AppAddress, token: string) => `${appUrlOf(config)}/r/${token}`;

export interface NewAccess {
  accessId: string;
  url: string;
  passcode: string;
}

/**
 * Makes the access of one issue of a request, unless the request settings turn the page off. The
 * earlier accesses of the request stop working: the newest letter is the one that counts.
 */
export async function createRecipientAccess(
  trx: Trx,
  config: RecipientLinkConfig,
  input: {
    request: Pick<RequestRow, 'request_number' | 'scope'>;
    method: string;
    sentTo: string;
    createdBy: string | null;
    at: Date;
  },
): Promise<NewAccess | undefined> {
  const settings = await getRequestSettings(trx, input.request.scope);
  if (settings?.disableRecipientPage) return undefined;
  const days = settings?.recipientAccessDays ?? DEFAULT_RECIPIENT_ACCESS_DAYS;
  const n = input.request.request_number;
  const revoked = await repo.revokeAccesses(trx, n, input.createdBy, input.at);
  await repo.deleteSessionsOfAccesses(trx, revoked);
  const token = randomBytes(24).toString('base64url');
  const passcode = newPasscode();
  const id = randomUUID();
  const key = config.recipientLinkKeys?.current;
  const accessId = await repo.insertAccess(trx, {
    id,
    requestNumber: n,
    correspondenceId: null,
    tokenHash: sha256(token),
    passcodeHash: await hashPassword(passcode),
    method: input.method,
    sentTo: input.sentTo,
    createdBy: input.createdBy,
    createdAt: input.at,
    expiresAt: new Date(input.at.getTime() + days * 86_400_000),
    sealed: key ? sealSecrets(key, id, { token, passcode }) : null,
  });
  return { accessId, url: recipientUrl(config, token), passcode };
}

export type AccessState = 'open' | 'expired' | 'revoked' | 'locked';

export function accessState(
  access: Pick<repo.AccessRow, 'revoked_at' | 'locked_at' | 'expires_at'>,
  request: Pick<RequestRow, 'status'> | undefined,
  now = new Date(),
): AccessState {
  if (access.revoked_at) return 'revoked';
  if (access.locked_at) return 'locked';
  if (!request || request.status === 'closed' || new Date(access.expires_at) <= now) return 'expired';
  return 'open';
}

/** The access of a link and its request, only while it works. */
export async function findWorkingAccess(db: DbOrTrx, token: string) {
  if (!token || token.length > 200) return undefined;
  const access = await repo.findAccessByTokenHash(db, sha256(token));
  if (!access) return undefined;
  const request = await findRequest(db, access.request_number);
  if (!request || accessState(access, request) !== 'open') return undefined;
  return { access, request };
}

const refused = () => fieldsInvalid({ passcode: RECIPIENT_ACCESS_REFUSED });

/**
 * Checks a passcode typed for a link. A right one answers a new session id (the cookie's value);
 * anything else the one refusal. The fifth wrong passcode within 15 minutes locks the access.
 */
export async function enterPasscode(
  db: Db,
  token: string,
  typed: string,
  ip: string,
): Promise<{ sessionId: string; requestNumber: string }> {
  if ((await countRate(db, IP_BUCKET, ip, WRONG_PASSCODE_WINDOW_SECONDS)) >= WRONG_TRIES_PER_ADDRESS)
    throw tooManyRequests('Too many tries. Please wait a few minutes.', WRONG_PASSCODE_WINDOW_SECONDS);
  const working = await findWorkingAccess(db, token);
  // Unknown links cost one verification too, so the time taken does not tell them apart.
  const ok = await verifyPassword(working?.access.passcode_hash ?? null, normalisePasscode(typed));
  if (!ok || !working)
    await takeRate(db, IP_BUCKET, ip, Number.MAX_SAFE_INTEGER, WRONG_PASSCODE_WINDOW_SECONDS);
  if (!working) throw refused();
  const { access, request } = working;
  const n = request.request_number;
  const at = new Date();
  if (!ok) {
    const counted = await takeRate(
      db,
      'recipientPasscode',
      access.id,
      WRONG_PASSCODES_ALLOWED - 1,
      WRONG_PASSCODE_WINDOW_SECONDS,
    );
    if (!counted)
      await db.transaction().execute(async (trx) => {
        if (!(await repo.lockAccess(trx, access.id, at))) return;
        await repo.deleteSessionsOfAccesses(trx, [access.id]);
        await recordEvent(trx, {
          type: 'request.recipientAccessLocked',
          aggregateType: 'request',
          aggregateId: n,
          actor: null,
          payload: {
            summary: `The recipient's link was locked after ${WRONG_PASSCODES_ALLOWED} wrong passcodes (last from ${ip}); re-send it to open it again.`,
            accessId: access.id,
            ip,
          },
        });
      });
    throw refused();
  }
  const sessionId = randomBytes(32).toString('base64url');
  await db.transaction().execute(async (trx) => {
    await repo.insertSession(trx, sha256(sessionId), access.id, ip);
    const first = await repo.markUsed(trx, access.id, at);
    await recordEvent(trx, {
      type: 'request.recipientAccessOpened',
      aggregateType: 'request',
      aggregateId: n,
      actor: null,
      payload: {
        summary: `The recipient ${first ? 'opened' : 'signed in to'} the recipient's page from ${ip}.`,
        accessId: access.id,
        ip,
      },
    });
  });
  return { sessionId, requestNumber: n };
}

/**
 * The working access of a link whose session cookie belongs to it and was used within the idle
 * minutes; undefined otherwise. A session of another link never opens this one.
 */
export async function resolveRecipientSession(db: DbOrTrx, token: string, cookie: string | undefined) {
  if (!cookie) return undefined;
  const working = await findWorkingAccess(db, token);
  if (!working) return undefined;
  const now = new Date();
  const idleSince = new Date(now.getTime() - RECIPIENT_SESSION_IDLE_MINUTES * 60_000);
  const session = await repo.findLiveSession(db, sha256(cookie), idleSince);
  if (!session || session.access_id !== working.access.id) return undefined;
  await repo.touchSession(db, session.id_hash, now);
  await repo.markUsed(db, working.access.id, now);
  return working;
}
