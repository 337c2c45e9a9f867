import type { PagingQuery, SearchAnswer } from '@dossier/core';

/** Escapes LIKE's wildcards (`%`, `_`) and its escape character, so a value matches only itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A LIKE pattern matching what starts with `prefix`, taken literally. */
export function likeStartsWith(prefix: string): string {
  return `${escapeLike(prefix)}%`;
}

/** Escapes LIKE wildcards so a search term matches literally. */
export function likeContains(term: string): string {
  return `%${escapeLike(term.trim().toLowerCase())}%`;
}

export function toSearchAnswer<T>(
  items: { id: string; item: T; highlight?: string }[],
  total: number,
  paging: PagingQuery,
): SearchAnswer<T> {
  return { hits: items, total, paging: { offset: paging.pageOffset, size: paging.pageSize } };
}
