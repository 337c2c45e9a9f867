import type { RequestRecipient } from './model.js';

// The state of a request's recipient snapshot against the recipient directory:
// new when it is not in the database, updated when its fields differ from the directory entry of
// the same version, unchanged otherwise. Used by the server for the stored snapshot and by the
// select-recipient page while the form is being edited.

export type RecipientState = 'new' | 'updated' | 'unchanged';

/** The fields a snapshot shares with the directory entry (contacts are the request's own choice). */
export const RECIPIENT_COMPARED_FIELDS = [
  'name',
  'phone',
  'fax',
  'email',
  'webSiteUrl',
  'streetAddress',
  'postalAddress',
  'country',
  'notes',
] as const;

type Comparable = Partial<Record<(typeof RECIPIENT_COMPARED_FIELDS)[number], string | null | undefined>> & {
  attachments?: readonly { key: string }[] | null;
};

const norm = (v: string | null | undefined) => (v ?? '').trim();

export function recipientState(
  snapshot: Pick<RequestRecipient, 'recipientId'> & Comparable,
  directoryEntry: Comparable | undefined,
): RecipientState {
  if (!snapshot.recipientId || !directoryEntry) return 'new';
  const differs = RECIPIENT_COMPARED_FIELDS.some((f) => norm(snapshot[f]) !== norm(directoryEntry[f]));
  const keys = (a: Comparable['attachments']) => (a ?? []).map((x) => x.key).join('\n');
  return differs || keys(snapshot.attachments) !== keys(directoryEntry.attachments) ? 'updated' : 'unchanged';
}
