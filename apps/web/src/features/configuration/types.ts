import type { EntryDataOf, EntryType, EntryView } from '@dossier/core';

export type { ChildSummary, ConfigurationListView, EntryChoices, EntryState, EntryView } from '@dossier/core';

/** What every type editor gets: its data, a way to change it, the field errors and the choices. */
export interface EditorProps<T extends EntryType = EntryType> {
  data: EntryDataOf[T];
  onChange(data: EntryDataOf[T]): void;
  /** Errors by field path, relative to the data ('url', 'smartForm.0.name'). */
  errors: Record<string, string>;
  disabled: boolean;
  view: EntryView;
}

export function entryPath(configurationId: string, id: string): string {
  return `/admin/configuration/edit/${encodeURIComponent(configurationId)}/${encodeURIComponent(id)}`;
}
