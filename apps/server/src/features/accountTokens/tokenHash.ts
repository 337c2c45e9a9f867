import { createHash } from 'node:crypto';

// One-time links (email confirmation, password reset, account activation) carry a random token;
// only its SHA-256 is stored, so a copy of the database opens no account.

export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
