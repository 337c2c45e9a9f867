import { Loader, Paper } from '@mantine/core';
import { lazy, Suspense } from 'react';
import type { RichTextEditorProps } from './richTextEditorProps';

export { editableDoc, type RichTextEditorProps } from './richTextEditorProps';

// TipTap and ProseMirror are most of the weight of any page that edits rich text, and the request
// page shows an editor only once a panel is opened: the editor is its own chunk, loaded on first
// use (issue 15), behind a frame of the editor's height so the page does not jump when it arrives.
const TiptapEditor = lazy(() => import('./TiptapEditor'));

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
