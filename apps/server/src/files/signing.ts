import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DbOrTrx } from '../db/database.js';

// Upload URLs are signed with a secret kept in the database, so every instance can check a URL
// that another instance handed out.

export async function loadSecret(db: DbOrTrx, name: string): Promise<Buffer> {
  await db
    .insertInto('app_secrets')
    .values({ name, value: randomBytes(32).toString('base64') })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('app_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

export function sign(secret: Buffer, parts: (string | number)[]): string {
  return createHmac('sha256', secret).update(parts.join('\n')).digest('base64url');
}

export function verify(secret: Buffer, parts: (string | number)[], signature: string): boolean {
  const expected = Buffer.from(sign(secret, parts));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
