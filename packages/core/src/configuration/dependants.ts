import type { StoredEntry } from './inheritance.js';

// What keeps an entry from being deleted: its children, the item type questions that take their
// choices from an option list, the request settings that pre-select an item type. Deleting any of
// these would leave the others pointing at nothing, so a delete is refused while one exists.

export interface Dependant {
  configurationId: string;
  scopePath: string;
  id: string;
  name: string;
  /** Why it depends: 'child', 'optionRange' or 'preSelected'. */
  reason: 'child' | 'optionRange' | 'preSelected';
}

interface Question {
  optionRange?: string;
  nestedForm?: Question[];
}

function usesOptionRange(questions: Question[] | undefined, range: string): boolean {
  return (questions ?? []).some((q) => q.optionRange === range || usesOptionRange(q.nestedForm, range));
}

/**
 * The entries, of any configuration given, that depend on entry `id` of type `type`. The entry
 * itself (its own rows in each configuration) is never among them.
 */
export function entryDependants(entries: readonly StoredEntry[], id: string, type: string): Dependant[] {
  const out: Dependant[] = [];
  for (const e of entries) {
    if (e.id === id) continue;
    const data = (e.data ?? {}) as { smartForm?: Question[]; preSelectedRequestItemTypes?: string[] };
    let reason: Dependant['reason'] | undefined;
    if (e.parentId === id) reason = 'child';
    else if (
      type === 'smartFormOptionEntry' &&
      e.type === 'requestItemTypeEntry' &&
      usesOptionRange(data.smartForm, id)
    )
      reason = 'optionRange';
    else if (
      type === 'requestItemTypeEntry' &&
      e.type === 'requestSettingsEntry' &&
      (data.preSelectedRequestItemTypes ?? []).includes(id)
    )
      reason = 'preSelected';
    if (reason)
      out.push({
        configurationId: e.configurationId,
        scopePath: e.scopePath,
        id: e.id,
        name: e.name,
        reason,
      });
  }
  return out;
}

const REASON_WORDS: Record<Dependant['reason'], string> = {
  child: 'its child',
  optionRange: 'a question of',
  preSelected: 'pre-selected by',
};

/** The refusal of a delete: what depends on the entry, in words. */
export function dependantsMessage(dependants: readonly Dependant[]): string {
  const named = dependants
    .slice(0, 5)
    .map((d) => `${REASON_WORDS[d.reason]} "${d.name}" (${d.scopePath})`)
    .join('; ');
  const more = dependants.length > 5 ? ` and ${dependants.length - 5} more` : '';
  return `This entry is still in use: ${named}${more}. Remove those first, or disable the entry.`;
}
