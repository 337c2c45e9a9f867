import type { PagingQuery, SearchAnswer } from '@dossier/core';

/** Escapes LIKE wildcards so a search term matches literally. */
export function likeContains(term: string): string {
  return `%${term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toSearchAnswer<T>(
  items: { id: string; item: T; highlight?: string }[],
  total: number,
  paging: PagingQuery,
): SearchAnswer<T> {
  return { hits: items, total, paging: { offset: paging.pageOffset, size: paging.pageSize } };
}
