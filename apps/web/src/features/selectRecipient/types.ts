import type { SelectRecipientView } from '@dossier/core';

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
