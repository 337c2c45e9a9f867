import { createSign, createVerify } from 'node:crypto';

// A delivery is signed with the webhook entry's private key (RSA, SHA-256) over
// "<timestamp>.<body>"; the receiver checks it with the public key shown in the editor and refuses
// timestamps older than a few minutes, which stops replays.

export const SIGNATURE_HEADER = 'dossier-signature';

export function signDelivery(privateKeyPem: string, body: string, timestamp: number): string {
  const signature = createSign('sha256').update(`${timestamp}.${body}`).sign(privateKeyPem, 'base64url');
  return `t=${timestamp},alg=RS256,sig=${signature}`;
}

/** What a receiver does: answers whether the header signs the body and is fresh enough. */
export function verifyDelivery(
  publicKeyPem: string,
  body: string,
  header: string,
  now = Date.now(),
  toleranceSeconds = 300,
) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const timestamp = Number(parts.t);
  if (!Number.isInteger(timestamp) || Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  return createVerify('sha256')
    .update(`${timestamp}.${body}`)
    .verify(publicKeyPem, parts.sig ?? '', 'base64url');
}
