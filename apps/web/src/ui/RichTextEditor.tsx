import { isUnparseableRichText, type RichTextDoc, sanitizeRichText } from '@dossier/core';
import { Loader, Paper } from '@mantine/core';
import { lazy, Suspense } from 'react';

// TipTap and ProseMirror are most of the weight of any page that edits rich text, and the request
// page shows an editor only once a panel is opened: the editor is its own chunk, loaded on first
// use (issue 15), behind a frame of the editor's height so the page does not jump when it arrives.
const TiptapEditor = lazy(() => import('./TiptapEditor'));

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
  disabled?: boolean;
  placeholders?: boolean;
  'data-testid'?: string;
  minHeight?: number;
  /** What a screen reader names the editing area (the field it edits). */
  label?: string;
}

export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense
      fallback={
        <Paper withBorder mih={(props.minHeight ?? 120) + 42} p="xs" data-testid="rich-text-loading">
          <Loader size="sm" />
        </Paper>
      }
    >
      <TiptapEditor {...props} />
    </Suspense>
  );
}
