import type { EntryDataOf, EntryType, View } from '@dossier/core';

export interface ConfigurationListView extends View {
  $type: 'configurationList';
  canEdit: boolean;
  configurations: {
    id: string;
    name: string;
    scopePath: string;
    order: number;
    isDisabled: boolean;
    isInherited: boolean;
    inherits: { id: string; name: string; scopePath: string }[];
  }[];
}

export interface ChildSummary {
  id: string;
  name: string;
  type: EntryType;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  isInherited: boolean;
  scopePath?: string;
}

export interface EntryChoices {
  optionLists: { id: string; name: string }[];
  requestItemTypes: { id: string; name: string; parentId: string }[];
  scopeTags: { id: string; name: string; options: { id: string; name: string }[] }[];
}

export interface EntryState {
  id: string;
  name: string;
  type: EntryType;
  order: number;
  isDefault: boolean;
  isDisabled: boolean;
  data: unknown;
  version: number | null;
  isInherited: boolean;
  inheritedFrom?: { configurationId: string; scopePath: string };
}

export interface EntryView extends View {
  $type: 'configurationEntry';
  configuration: { id: string; scopePath: string; name: string };
  entry: EntryState;
  isNew: boolean;
  canEdit: boolean;
  canRevertToInherited: boolean;
  path: { id: string; name: string }[];
  children: ChildSummary[];
  childTypes: EntryType[];
  choices: EntryChoices;
}

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
