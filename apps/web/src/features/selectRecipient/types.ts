import type { RecipientState, RequestRecipient, SearchAnswer, View } from '@dossier/core';

export type RecipientHit = RequestRecipient & { address: string | null; disabled: boolean };

export interface SelectRecipientView extends View {
  $type: 'selectRecipient';
  requestNumber: string;
  /** The request's version, sent back on save (a newer one on the server means a conflict). */
  version: number;
  isClosed: boolean;
  current: { recipient: RequestRecipient; state: RecipientState };
  search: {
    terms: { name: string; phone: string; address: string; email: string };
    result?: SearchAnswer<RecipientHit> & { summary: string };
  };
  enterNew: boolean;
  newRecipient: RequestRecipient;
}

export const SEARCH_FIELDS = ['name', 'phone', 'address', 'email'] as const;

/** The page's address for a search (or an Enter New) with these terms. */
export function selectRecipientPath(
  requestNumber: string,
  terms: SelectRecipientView['search']['terms'],
  extra: Record<string, string> = {},
): string {
  const query = new URLSearchParams();
  for (const f of SEARCH_FIELDS) if (terms[f].trim()) query.set(`search.${f}`, terms[f].trim());
  for (const [k, v] of Object.entries(extra)) query.set(k, v);
  return `/requests/${requestNumber}/select-recipient?${query}`;
}
