import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

// A software authenticator for the passkey tests: an ES256 key pair, 'none' attestation, a
// signature counter, user presence and verification flags as asked. It writes what a browser's
// navigator.credentials.create() / .get() answer as JSON.

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  readonly id = b64(this.credentialId);
  counter = 0;
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });

  constructor(
    readonly rpId = 'localhost',
    readonly origin = 'http://localhost',
  ) {}

  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? '', 'base64url')],
        [-3, Buffer.from(jwk.y ?? '', 'base64url')],
      ]),
    );
  }

  private authData(flags: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The answer of navigator.credentials.create() to these options' challenge. */
  register(challenge: string, options: { userVerified?: boolean } = {}) {
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      Buffer.from(this.coseKey()),
    ]);
    const flags = 0x01 | (options.userVerified === false ? 0 : 0x04) | 0x40;
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authData(flags, attested)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(this.clientData('webauthn.create', challenge)),
        attestationObject: b64(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The answer of navigator.credentials.get(): the counter moves on unless told to stay. */
  authenticate(challenge: string, options: { advance?: boolean } = {}) {
    if (options.advance !== false) this.counter += 1;
    const clientData = this.clientData('webauthn.get', challenge);
    const authData = this.authData(0x05);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64(clientData),
        authenticatorData: b64(authData),
        signature: b64(sign('sha256', signed, this.keys.privateKey)),
      },
    };
  }
}
