import { checkTemplate } from '@dossier/core';

/** Messages of malformed placeholders and unknown paths in a text, under the input. */
export function placeholderError(text: string | undefined): string | undefined {
  const problem = text ? checkTemplate(text)[0] : undefined;
  return problem ? `${problem.source}: ${problem.message}` : undefined;
}

/** Moves an item of a list one place up or down. */
export function move<T>(list: T[], index: number, by: -1 | 1): T[] {
  const target = index + by;
  if (target < 0 || target >= list.length) return list;
  const [a, b] = [list[index], list[target]];
  if (a === undefined || b === undefined) return list;
  const out = [...list];
  [out[index], out[target]] = [b, a];
  return out;
}

export function replaceAt<T>(list: T[], index: number, item: T): T[] {
  return list.map((x, i) => (i === index ? item : x));
}

/** The next free id of a list: q1, q2… */
export function nextId(prefix: string, items: { id: string }[]): string {
  for (let n = items.length + 1; ; n++)
    if (!items.some((i) => i.id === `${prefix}${n}`)) return `${prefix}${n}`;
}
