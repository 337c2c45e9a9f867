import { z } from 'zod';
import { AUTH_METHODS } from '../secondFactor.js';

// What a contract is made of. A view is what the server answers for a page: an object tagged with
// its `$type`, by which the web picks the page. Views are strict, so a key the server sends and the
// contract lacks fails the contract test (apps/server/test/contracts.test.ts) instead of drifting.

/** The schema of a view: its `$type` as a literal, the optional document title, and its own keys. */
export function defineView<T extends string, S extends z.ZodRawShape>(type: T, shape: S) {
  return z.strictObject({ $type: z.literal(type), title: z.string().optional(), ...shape });
}

/**
 * A part of a contract typed by a TypeScript declaration that is not written out in zod yet: the
 * type holds on both sides, the runtime check accepts it as it is.
 */
export const typed = <T>() => z.custom<T>(() => true);

/** An entry of a record's audit trail: who changed what, when (newest first). */
export const historyEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actor: z.string().nullable(),
  type: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  /** For payee changes: how the editor's session was authenticated (issue 35). */
  authenticatedBy: z.enum(AUTH_METHODS).optional(),
});
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** A choice of a select: its value (path or code) and the name shown. */
export const scopeChoiceSchema = z.object({ path: z.string(), name: z.string() });
export const currencyChoiceSchema = z.object({ code: z.string(), name: z.string() });
