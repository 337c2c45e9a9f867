import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeRsaPublicKey, RsaKeyError, rsaPublicKeyToDerBase64, rsaPublicKeyToPem } from '../src/index.js';

const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = publicKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim();
const der = publicKey.export({ type: 'pkcs1', format: 'der' }).toString('base64');
const jwk = publicKey.export({ format: 'jwk' });

describe('RSA public keys (PKCS#1)', () => {
  it('decodes a PEM block to base64 modulus and exponent', () => {
    const key = decodeRsaPublicKey(pem);
    expect(Buffer.from(key.modulus, 'base64').toString('base64url')).toBe(jwk.n);
    expect(Buffer.from(key.exponent, 'base64').toString('base64url')).toBe(jwk.e);
  });
  it('decodes bare base64 too, and shows the same block again', () => {
    const key = decodeRsaPublicKey(der);
    expect(rsaPublicKeyToDerBase64(key)).toBe(der);
    expect(rsaPublicKeyToPem(key)).toBe(pem);
  });
  it.each([
    ['empty', ''],
    ['not base64', 'not a key!'],
    ['a SubjectPublicKeyInfo (PKCS#8) block', publicKey.export({ type: 'spki', format: 'pem' }).toString()],
    ['truncated', der.slice(0, 100)],
    ['trailing data', Buffer.concat([Buffer.from(der, 'base64'), Buffer.from([0])]).toString('base64')],
    ['a sequence of one integer', Buffer.from([0x30, 0x03, 0x02, 0x01, 0x05]).toString('base64')],
    ['a short modulus', Buffer.from([0x30, 0x06, 0x02, 0x01, 0x05, 0x02, 0x01, 0x03]).toString('base64')],
  ])('rejects %s', (_name, text) => expect(() => decodeRsaPublicKey(text)).toThrow(RsaKeyError));
  it('rejects a key under 2048 bits', () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey;
    const text = weak.export({ type: 'pkcs1', format: 'pem' }).toString();
    expect(() => decodeRsaPublicKey(text)).toThrow('The key is shorter than 2048 bits.');
  });
});
