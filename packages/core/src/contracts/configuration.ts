import { z } from 'zod';
import { ENTRY_TYPES } from '../configuration/enums.js';
import type { ChildSummary, EntryChoices, EntryState } from '../configuration/views.js';
import { defineView, typed } from './view.js';

// The configuration screens: the list of configurations and the page of one entry.

export const configurationListViewSchema = defineView('configurationList', {
  canEdit: z.boolean(),
  configurations: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      scopePath: z.string(),
      order: z.number(),
      isDisabled: z.boolean(),
      isInherited: z.boolean(),
      inherits: z.array(z.object({ id: z.string(), name: z.string(), scopePath: z.string() })),
    }),
  ),
});
export type ConfigurationListView = z.infer<typeof configurationListViewSchema>;

export const entryViewSchema = defineView('configurationEntry', {
  configuration: z.object({ id: z.string(), scopePath: z.string(), name: z.string() }),
  entry: typed<EntryState>(),
  isNew: z.boolean(),
  canEdit: z.boolean(),
  canRevertToInherited: z.boolean(),
  /** The entries above this one, from the root down (for the way back). */
  path: z.array(z.object({ id: z.string(), name: z.string() })),
  children: z.array(typed<ChildSummary>()),
  childTypes: z.array(z.enum(ENTRY_TYPES)),
  choices: typed<EntryChoices>(),
});
export type EntryView = z.infer<typeof entryViewSchema>;
