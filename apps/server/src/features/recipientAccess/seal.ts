import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { RecipientLinkKeys } from '../../config.js';

// The recipient's token and passcode sealed beside their hashes (issue 34), so that a later mail to
// the recipient (the automatic reminder) can print the link again: AES-256-GCM under a key held
// outside the database (RECIPIENT_LINK_KEY), a random 96-bit nonce per seal, the access's id as
// associated data (a sealed value copied onto another access does not open). The hashes stay what a
// link and a passcode are checked against: a copy of the database without the key opens nothing.
//
// Format: `v1.<key id>.<nonce>.<ciphertext and tag>`, base64url. The key id (a hash of the key) says
// which key sealed it, so RECIPIENT_LINK_KEY_PREVIOUS still opens what was sealed before a rotation.

const VERSION = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface AccessSecrets {
  token: string;
  passcode: string;
}

export function keyId(key: Buffer): string {
  return createHash('sha256')
    .update('dossier recipient link key\n')
    .update(key)
    .digest('base64url')
    .slice(0, 11);
}

const associated = (accessId: string) => Buffer.from(`recipient_accesses:${accessId}`, 'utf8');

export function sealSecrets(key: Buffer, accessId: string, secrets: AccessSecrets): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(associated(accessId));
  const plain = Buffer.from(JSON.stringify({ t: secrets.token, p: secrets.passcode }), 'utf8');
  const sealed = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  return [VERSION, keyId(key), nonce.toString('base64url'), sealed.toString('base64url')].join('.');
}

/** Whether a sealed value was sealed under a key other than those given (instances set apart). */
export function sealedUnderOtherKey(keys: RecipientLinkKeys | undefined, sealed: string | null | undefined) {
  const [version, id] = (sealed ?? '').split('.');
  const held = [keys?.current, keys?.previous].filter((k): k is Buffer => !!k);
  if (version !== VERSION || !id || held.length === 0) return false;
  return !held.some((k) => keyId(k) === id);
}

/**
 * The token and passcode of a sealed value, or undefined: no value (an access made before sealing),
 * no key of the keys given sealed it, or it was altered or belongs to another access.
 */
export function openSecrets(
  keys: RecipientLinkKeys | undefined,
  accessId: string,
  sealed: string | null | undefined,
): AccessSecrets | undefined {
  const [version, id, nonce, body, ...rest] = (sealed ?? '').split('.');
  if (version !== VERSION || !id || !nonce || !body || rest.length > 0) return undefined;
  const key = [keys?.current, keys?.previous].find((k) => k && keyId(k) === id);
  if (!key) return undefined;
  const bytes = Buffer.from(body, 'base64url');
  const iv = Buffer.from(nonce, 'base64url');
  if (iv.length !== NONCE_BYTES || bytes.length <= TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associated(accessId));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(bytes.subarray(0, bytes.length - TAG_BYTES)),
      decipher.final(),
    ]);
    const parsed = JSON.parse(plain.toString('utf8')) as { t?: unknown; p?: unknown };
    if (typeof parsed.t !== 'string' || typeof parsed.p !== 'string') return undefined;
    return { token: parsed.t, passcode: parsed.p };
  } catch {
    // A wrong tag: altered, or sealed for another access.
    return undefined;
  }
}
