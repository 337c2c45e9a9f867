import {
  configurationEntryRoute,
  type EntryDataOf,
  type EntryType,
  type EntryView,
  pathOfRoute,
} from '@dossier/core';

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

/** The page of an entry (the root entry's id is c). */
export function entryPath(configurationId: string, id: string): string {
  return pathOfRoute(configurationEntryRoute.path, { c: configurationId, id });
}
