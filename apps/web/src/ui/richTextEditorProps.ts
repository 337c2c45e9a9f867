import { isUnparseableRichText, type RichTextDoc, sanitizeRichText } from '@dossier/core';

// What the editor's frame (RichTextEditor.tsx) and the editor loaded into it (TiptapEditor.tsx)
// share, apart from both so the frame's lazy import of the editor is no import cycle.

/** What the editor is given: sanitized; unparseable content is logged and treated as empty. */
export function editableDoc(value: unknown): RichTextDoc {
  if (value !== undefined && value !== null && isUnparseableRichText(value)) {
    console.error('Unparseable rich text treated as empty', value);
  }
  return sanitizeRichText(value);
}

export interface RichTextEditorProps {
  value: unknown;
  onChange(doc: RichTextDoc): void;
  disabled?: boolean | undefined;
  placeholders?: boolean;
  'data-testid'?: string;
  minHeight?: number;
  /** What a screen reader names the editing area (the field it edits). */
  label?: string;
}
