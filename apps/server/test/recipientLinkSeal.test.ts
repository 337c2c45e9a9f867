import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import {
  keyId,
  openSecrets,
  sealedUnderOtherKey,
  sealSecrets,
} from '../src/features/recipientAccess/seal.js';
import { readOrCreateKey, withRecipientLinkKey } from '../src/recipientLinkKey.js';

// Issue 34: the recipient's token and passcode sealed beside their hashes, under a key the database
// does not hold. Without that key, or for another access, or altered, the sealed value opens nothing.

const secrets = { token: 'tok_'.padEnd(32, 'x'), passcode: 'ABCD2345' };
const silent = { info: () => undefined, warn: () => undefined };

describe('the seal of a recipient link', () => {
  const key = randomBytes(32);
  const id = randomUUID();

  it('opens with its key and its access id, and hides both secrets', () => {
    const sealed = sealSecrets(key, id, secrets);
    expect(sealed).toMatch(/^v1\.[\w-]{11}\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain(secrets.token);
    expect(sealed).not.toContain(secrets.passcode);
    expect(openSecrets({ current: key }, id, sealed)).toEqual(secrets);
    // A random nonce per seal: the same secrets never seal alike.
    expect(sealSecrets(key, id, secrets)).not.toBe(sealed);
  });

  it('refuses another key, no key, another access, altered text and no value', () => {
    const sealed = sealSecrets(key, id, secrets);
    expect(openSecrets({ current: randomBytes(32) }, id, sealed)).toBeUndefined();
    expect(openSecrets({}, id, sealed)).toBeUndefined();
    expect(openSecrets(undefined, id, sealed)).toBeUndefined();
    expect(openSecrets({ current: key }, randomUUID(), sealed)).toBeUndefined();
    const [v, k, nonce, body = ''] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(
      openSecrets({ current: key }, id, [v, k, nonce, flipped.toString('base64url')].join('.')),
    ).toBeUndefined();
    const otherNonce = randomBytes(12).toString('base64url');
    expect(openSecrets({ current: key }, id, [v, k, otherNonce, body].join('.'))).toBeUndefined();
    // A forged key id does not make another key try it.
    expect(
      openSecrets({ current: randomBytes(32) }, id, [v, keyId(randomBytes(32)), nonce, body].join('.')),
    ).toBeUndefined();
    expect(openSecrets({ current: key }, id, `v2.${k}.${nonce}.${body}`)).toBeUndefined();
    expect(openSecrets({ current: key }, id, null)).toBeUndefined();
    expect(openSecrets({ current: key }, id, 'garbage')).toBeUndefined();
  });

  it('still opens what the previous key sealed, after a rotation', () => {
    const old = randomBytes(32);
    const sealed = sealSecrets(old, id, secrets);
    expect(openSecrets({ current: key, previous: old }, id, sealed)).toEqual(secrets);
    expect(openSecrets({ current: key }, id, sealed)).toBeUndefined();
    // Told apart from a value of no key at all, for the warning of instances with different keys.
    expect(sealedUnderOtherKey({ current: key }, sealed)).toBe(true);
    expect(sealedUnderOtherKey({ current: key, previous: old }, sealed)).toBe(false);
    expect(sealedUnderOtherKey({}, sealed)).toBe(false);
    expect(sealedUnderOtherKey({ current: key }, null)).toBe(false);
  });
});

describe('the key', () => {
  it('comes from RECIPIENT_LINK_KEY and RECIPIENT_LINK_KEY_PREVIOUS, 32 bytes in base64', () => {
    const current = randomBytes(32);
    const previous = randomBytes(32);
    const config = loadConfig({
      RECIPIENT_LINK_KEY: current.toString('base64'),
      RECIPIENT_LINK_KEY_PREVIOUS: previous.toString('base64'),
    });
    expect(config.recipientLinkKeys.current?.equals(current)).toBe(true);
    expect(config.recipientLinkKeys.previous?.equals(previous)).toBe(true);
    expect(loadConfig({}).recipientLinkKeys.current).toBeUndefined();
    for (const bad of [
      randomBytes(16).toString('base64'),
      'not base64!',
      `${current.toString('base64')}AAAA`,
    ])
      expect(() => loadConfig({ RECIPIENT_LINK_KEY: bad })).toThrow(
        new ConfigError(
          'Invalid environment variable RECIPIENT_LINK_KEY: expected 32 bytes in base64 (openssl rand -base64 32)',
        ),
      );
  });

  it('is made once in the data directory when the environment has none, readable by the owner only', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dossier-link-key-'));
    try {
      const config = loadConfig({ DATA_DIR: dir });
      const first = await withRecipientLinkKey(config, silent);
      const file = path.join(dir, 'recipient-link.key');
      expect(((await fs.stat(file)).mode & 0o777).toString(8)).toBe('600');
      expect(first.recipientLinkKeys.current).toHaveLength(32);
      const again = await withRecipientLinkKey(config, silent);
      expect(again.recipientLinkKeys.current?.equals(first.recipientLinkKeys.current as Buffer)).toBe(true);
      // Two processes starting at once on one directory keep one key.
      const other = path.join(dir, 'race.key');
      const keys = await Promise.all([readOrCreateKey(other, silent), readOrCreateKey(other, silent)]);
      expect(keys[0]?.equals(keys[1] as Buffer)).toBe(true);
      expect((await fs.readdir(dir)).sort()).toEqual(['race.key', 'recipient-link.key']);
      // The environment's key wins; no file is read or made for it.
      const given = randomBytes(32);
      const fromEnv = await withRecipientLinkKey(
        loadConfig({ DATA_DIR: path.join(dir, 'unused'), RECIPIENT_LINK_KEY: given.toString('base64') }),
        silent,
      );
      expect(fromEnv.recipientLinkKeys.current?.equals(given)).toBe(true);
      await expect(fs.access(path.join(dir, 'unused'))).rejects.toThrow();
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
