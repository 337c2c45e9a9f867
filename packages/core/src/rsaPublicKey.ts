// RSA public keys of API keys: PKCS#1 (RSAPublicKey ::= SEQUENCE { modulus INTEGER, publicExponent
// INTEGER }), stored decoded as base64 modulus and exponent, shown as an RSA PUBLIC KEY block.
// Pure code (no node:crypto) so the browser can show what the server will accept; the server also
// loads the key with node:crypto before storing it.

export interface RsaPublicKey {
  /** Base64 of the big-endian modulus, without a leading zero byte. */
  modulus: string;
  /** Base64 of the big-endian public exponent. */
  exponent: string;
}

export class RsaKeyError extends Error {}

function base64ToBytes(text: string): Uint8Array {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.length % 4 !== 0) {
    throw new RsaKeyError('The key is not base64.');
  }
  const binary = atob(compact);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function readLength(bytes: Uint8Array, at: number): { length: number; next: number } {
  const first = bytes[at];
  if (first === undefined) throw new RsaKeyError('The key ends too early.');
  if (first < 0x80) return { length: first, next: at + 1 };
  const count = first & 0x7f;
  if (count === 0 || count > 4) throw new RsaKeyError('The key has an invalid length.');
  let length = 0;
  for (let i = 1; i <= count; i++) {
    const b = bytes[at + i];
    if (b === undefined) throw new RsaKeyError('The key ends too early.');
    length = length * 256 + b;
  }
  return { length, next: at + 1 + count };
}

function readTag(bytes: Uint8Array, at: number, tag: number): { start: number; end: number } {
  if (bytes[at] !== tag) throw new RsaKeyError('The key is not a PKCS#1 RSA public key.');
  const { length, next } = readLength(bytes, at + 1);
  if (next + length > bytes.length) throw new RsaKeyError('The key ends too early.');
  return { start: next, end: next + length };
}

function unsignedInteger(bytes: Uint8Array, start: number, end: number): Uint8Array {
  if (end <= start) throw new RsaKeyError('The key has an empty number.');
  if ((bytes[start] ?? 0) & 0x80) throw new RsaKeyError('The key has a negative number.');
  let from = start;
  while (from < end - 1 && bytes[from] === 0) from++;
  return bytes.slice(from, end);
}

/** The PEM body or bare base64 of a PKCS#1 key, decoded; throws RsaKeyError when malformed. */
export function decodeRsaPublicKey(text: string): RsaPublicKey {
  const pem = /-----BEGIN RSA PUBLIC KEY-----([\s\S]*?)-----END RSA PUBLIC KEY-----/.exec(text);
  if (!pem && /-----BEGIN /.test(text))
    throw new RsaKeyError('Only an RSA PUBLIC KEY (PKCS#1) block is accepted.');
  const bytes = base64ToBytes(pem ? (pem[1] ?? '') : text);
  const seq = readTag(bytes, 0, 0x30);
  if (seq.end !== bytes.length) throw new RsaKeyError('The key has trailing data.');
  const mod = readTag(bytes, seq.start, 0x02);
  const exp = readTag(bytes, mod.end, 0x02);
  if (exp.end !== seq.end) throw new RsaKeyError('The key has unexpected fields.');
  const modulus = unsignedInteger(bytes, mod.start, mod.end);
  const exponent = unsignedInteger(bytes, exp.start, exp.end);
  // NIST has disallowed RSA keys under 2048 bits for signatures since 2013.
  if (modulus.length < 256) throw new RsaKeyError('The key is shorter than 2048 bits.');
  if (exponent.length > 8 || (exponent.length === 1 && (exponent[0] ?? 0) < 3))
    throw new RsaKeyError('The key has an invalid exponent.');
  return { modulus: bytesToBase64(modulus), exponent: bytesToBase64(exponent) };
}

function encodeLength(length: number): number[] {
  if (length < 0x80) return [length];
  const out: number[] = [];
  let rest = length;
  while (rest > 0) {
    out.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  }
  return [0x80 | out.length, ...out];
}

function encodeInteger(bytes: Uint8Array): number[] {
  const body = (bytes[0] ?? 0) & 0x80 ? [0, ...bytes] : [...bytes];
  return [0x02, ...encodeLength(body.length), ...body];
}

/** The DER bytes (base64) of the PKCS#1 structure of a decoded key. */
export function rsaPublicKeyToDerBase64(key: RsaPublicKey): string {
  const body = [...encodeInteger(base64ToBytes(key.modulus)), ...encodeInteger(base64ToBytes(key.exponent))];
  return bytesToBase64(Uint8Array.from([0x30, ...encodeLength(body.length), ...body]));
}

/** The key as an RSA PUBLIC KEY block, 64 characters a line. */
export function rsaPublicKeyToPem(key: RsaPublicKey): string {
  const lines = rsaPublicKeyToDerBase64(key).match(/.{1,64}/g) ?? [];
  return ['-----BEGIN RSA PUBLIC KEY-----', ...lines, '-----END RSA PUBLIC KEY-----'].join('\n');
}
