import { generateKeyPairSync, type KeyObject, randomUUID, sign } from 'node:crypto';
import type { ApiScope } from '@dossier/core';
import { SignJWT } from 'jose';
import type { Db } from '../../src/db/database.js';
import { invalidateConfigurationCache } from '../../src/features/configuration/effective.js';

// API keys for the public API tests: an RSA key pair whose public half is stored the way the
// configuration editor stores it (modulus and exponent in base64), and tokens signed with the private
// half — valid ones, and the broken kinds the API must refuse.

export interface TestApiKey {
  kid: string;
  privateKey: KeyObject;
  scopePath: string;
}

const base64 = (base64url: string) => Buffer.from(base64url, 'base64url').toString('base64');

export function rsaPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** Stores an apiKeyEntry in the configuration of the scope path (created when missing). */
export async function addApiKey(
  db: Db,
  input: {
    kid: string;
    scopePath: string;
    apiScopes: ApiScope[];
    disabled?: boolean;
    pair?: ReturnType<typeof rsaPair>;
  },
): Promise<TestApiKey> {
  const pair = input.pair ?? rsaPair();
  const jwk = pair.publicKey.export({ format: 'jwk' });
  const configurationId = `api${input.scopePath.replace(/[^a-z0-9]/gi, '')}` || 'apiroot';
  await db
    .insertInto('configurations')
    .values({ id: configurationId, scope_path: input.scopePath, name: input.scopePath })
    .onConflict((oc) => oc.column('scope_path').doNothing())
    .execute();
  const configuration = await db
    .selectFrom('configurations')
    .select('id')
    .where('scope_path', '=', input.scopePath)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('configuration_entries')
    .values({
      configuration_id: configuration.id,
      id: input.kid,
      parent_id: 'c',
      type: 'apiKeyEntry',
      name: `Key ${input.kid}`,
      is_disabled: input.disabled ?? false,
      data: JSON.stringify({
        publicKey: { modulus: base64(String(jwk.n)), exponent: base64(String(jwk.e)) },
        apiScopes: input.apiScopes,
      }),
    })
    .execute();
  invalidateConfigurationCache(db);
  return { kid: input.kid, privateKey: pair.privateKey, scopePath: input.scopePath };
}

export interface TokenOptions {
  audience?: string;
  /** Seconds from now; null leaves exp out. */
  expiresIn?: number | null;
  /** Seconds from now for iat. */
  issuedAt?: number;
  jti?: string | null;
  kid?: string;
}

export const TEST_AUDIENCE = 'dossier-api';

/** A token signed RS256 by the key, valid unless the options break it. */
export async function apiToken(key: TestApiKey, options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = { iat: now + (options.issuedAt ?? 0) };
  if (options.expiresIn !== null) claims.exp = now + (options.expiresIn ?? 120);
  if (options.jti !== null) claims.jti = options.jti ?? randomUUID();
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? key.kid, typ: 'JWT' })
    .setAudience(options.audience ?? TEST_AUDIENCE)
    .sign(key.privateKey);
}

/** A token signed RS256 by hand, for keys the JWT library refuses to sign with (under 2048 bits). */
export function rawRs256Token(key: TestApiKey): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const input = `${part({ alg: 'RS256', kid: key.kid, typ: 'JWT' })}.${part({ aud: TEST_AUDIENCE, iat: now, exp: now + 60, jti: randomUUID() })}`;
  return `${input}.${sign('RSA-SHA256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

/** An unsigned token (alg none) with otherwise valid claims. */
export function unsignedToken(kid: string): string {
  const now = Math.floor(Date.now() / 1000);
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', kid, typ: 'JWT' })}.${part({ aud: TEST_AUDIENCE, iat: now, exp: now + 60, jti: randomUUID() })}.`;
}

/** A token signed HS256 with the given secret (a confused-deputy attempt with the public key). */
export async function hmacToken(kid: string, secret: Uint8Array): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 60, jti: randomUUID() })
    .setProtectedHeader({ alg: 'HS256', kid })
    .setAudience(TEST_AUDIENCE)
    .sign(secret);
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
