import type { EntryType } from './enums.js';

// The views of the configuration screens: built by the server, rendered by the web app.

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

/** Choices the editors offer: option lists and request item types in effect here. */
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
