import type { DbOrTrx } from '../../db/database.js';
import { takeRate } from '../../db/rateLimit.js';
import { tooManyRequests } from '../../http/errors.js';
import { oldestRateEvent } from './repository.js';

// Per-key rate limits, counted in the shared rate_events table so every instance sees the same
// count. Calls are counted over a sliding minute; a refusal says when to try again.

const WINDOW_SECONDS = 60;

/** Credential checks are a password-guessing surface: far fewer per key than other calls. */
export const CREDENTIAL_CHECKS_PER_MINUTE = 30;

export async function takeApiRate(
  db: DbOrTrx,
  bucket: 'api.calls' | 'api.credentials',
  keyId: string,
  limitPerMinute: number,
): Promise<void> {
  if (await takeRate(db, bucket, keyId, limitPerMinute, WINDOW_SECONDS)) return;
  const oldest = await oldestRateEvent(db, bucket, keyId, new Date(Date.now() - WINDOW_SECONDS * 1000));
  const at = oldest?.getTime() ?? Date.now();
  const retryAfter = Math.max(1, Math.ceil((at + WINDOW_SECONDS * 1000 - Date.now()) / 1000));
  throw tooManyRequests('Too many calls for this API key. Please slow down.', retryAfter);
}
