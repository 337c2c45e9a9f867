import type { FieldErrors } from '../userForm.js';
import type { TagValues } from './model.js';
import type { TagDefinition } from './views.js';

// The tags chosen when adding a result or an invoice and when closing or re-opening a request
// ("tags required by the server"). A required tag has no empty choice.

export const REQUEST_TAGS = {
  result: [
    {
      id: 'documentType',
      name: 'Document Type',
      values: ['Medical records', 'Clinical notes', 'Specialist report', 'Imaging', 'Other'],
      isRequired: true,
    },
  ],
  invoice: [
    {
      id: 'invoiceType',
      name: 'Invoice Type',
      values: ['Records fee', 'Report fee', 'Administration fee', 'Other'],
      isRequired: true,
    },
  ],
  close: [
    {
      id: 'closeReason',
      name: 'Close Reason',
      values: ['Completed', 'Withdrawn by sender', 'Records not held', 'Duplicate request', 'Other'],
      isRequired: true,
    },
  ],
  reOpen: [
    {
      id: 'reOpenReason',
      name: 'Re-open Reason',
      values: ['Further records required', 'Closed in error', 'Sender query', 'Other'],
      isRequired: true,
    },
  ],
} as const satisfies Record<string, TagDefinition[]>;

export type TagSet = keyof typeof REQUEST_TAGS;

/** Field errors (`tags.<id>`) for required tags left empty and values not offered. */
export function validateTags(definitions: readonly TagDefinition[], values: TagValues): FieldErrors {
  const errors: FieldErrors = {};
  for (const tag of definitions) {
    const value = values[tag.id] ?? '';
    if (value === '') {
      if (tag.isRequired) errors[`tags.${tag.id}`] = `${tag.name} is required.`;
    } else if (!tag.values.includes(value))
      errors[`tags.${tag.id}`] = `Choose one of the values offered for ${tag.name}.`;
  }
  for (const id of Object.keys(values)) {
    if (!definitions.some((t) => t.id === id)) errors[`tags.${id}`] = 'Unknown tag.';
  }
  return errors;
}

/** The tags with their chosen value, for display: "Close Reason: Completed". */
export function describeTags(definitions: readonly TagDefinition[], values: TagValues): string {
  return definitions
    .filter((t) => values[t.id])
    .map((t) => `${t.name}: ${values[t.id]}`)
    .join(', ');
}
