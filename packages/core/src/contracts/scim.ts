import { z } from 'zod';
import { defineRoute } from './route.js';

// The configuration editor's side of a SCIM client (issue 17): whether it has a bearer token, and a
// new one. The SCIM protocol routes themselves (/scim/v2) are called by identity providers, never by
// the web, so their contracts stay with the server (apps/server/src/features/scim/contracts.ts).

const scimClientEntryParams = z.object({
  c: z.string().min(1).max(100),
  id: z.string().min(1).max(300),
});

/** The token itself only in the answer that made it; otherwise its last characters (hint). */
export const scimTokenStateSchema = z.object({
  token: z.string().nullable(),
  hint: z.string().nullable(),
  createdAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ScimTokenState = z.infer<typeof scimTokenStateSchema>;

export const scimTokenStatusRoute = defineRoute({
  method: 'GET',
  path: '/admin/configuration/edit/:c/:id/scim-token',
  params: scimClientEntryParams,
  answer: scimTokenStateSchema,
});

/** Replaces the client's token: the previous one stops working. */
export const createScimTokenRoute = defineRoute({
  method: 'POST',
  path: '/admin/configuration/edit/:c/:id/scim-token',
  params: scimClientEntryParams,
  answer: scimTokenStateSchema,
});
