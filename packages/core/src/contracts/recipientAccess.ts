import { z } from 'zod';

// The recipient's links as the request page lists them for staff (issue 34). Apart from the
// recipient's page's own contracts (recipientPage.ts), which only that page and the server load.

/** What the request page shows staff of the recipient's accesses (newest first). */
export const recipientAccessItemSchema = z.strictObject({
  accessId: z.string(),
  method: z.string(),
  sentTo: z.string(),
  sentAt: z.string(),
  firstOpenedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  expiresAt: z.string(),
  lockedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** expired, revoked, locked or open: which of them holds now. */
  status: z.enum(['open', 'expired', 'revoked', 'locked']),
});
export type RecipientAccessItem = z.infer<typeof recipientAccessItemSchema>;
