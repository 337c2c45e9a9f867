import '@mantine/tiptap/styles.css';
import { checkTemplate, MAX_LIST_DEPTH, sanitizeRichText } from '@dossier/core';
import { Text } from '@mantine/core';
import { RichTextEditor as MantineEditor } from '@mantine/tiptap';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import { Decoration, DecorationSet } from '@tiptap/pm/view';
import { Extension, useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MentionChips } from './mentionChips';
import { RichTextToolbar } from './RichTextToolbar';
import { editableDoc, type RichTextEditorProps } from './richTextEditorProps';
import { specStarterKit } from './richTextKit';

// The rich text editor of the specification (loaded on first use through RichTextEditor.tsx): headers 1 to 3, bullet and numbered lists, blockquote,
// bold, italic, underline, links (https and mailto only), list depth at most 4. Stored as the
// TipTap JSON document; what comes in is sanitized, and unparseable content is logged and treated
// as empty. With `placeholders`, malformed placeholders and unknown paths are marked in red.

function listDepth(state: {
  selection: { $from: { depth: number; node(d: number): { type: { name: string } } } };
}) {
  const { $from } = state.selection;
  let depth = 0;
  for (let d = $from.depth; d > 0; d--) {
    const name = $from.node(d).type.name;
    if (name === 'bulletList' || name === 'orderedList') depth++;
  }
  return depth;
}

const ListDepthLimit = Extension.create({
  name: 'listDepthLimit',
  addKeyboardShortcuts() {
    return {
      Tab: () => {
        if (listDepth(this.editor.state) >= MAX_LIST_DEPTH) return true;
        return this.editor.commands.sinkListItem('listItem') || true;
      },
      'Shift-Tab': () => this.editor.commands.liftListItem('listItem') || true,
    };
  },
});

const placeholderKey = new PluginKey('placeholderProblems');
const PlaceholderProblems = Extension.create({
  name: 'placeholderProblems',
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: placeholderKey,
        props: {
          decorations(state) {
            const decorations: Decoration[] = [];
            state.doc.descendants((node, pos) => {
              if (!node.isText || !node.text) return;
              for (const problem of checkTemplate(node.text)) {
                decorations.push(
                  Decoration.inline(pos + problem.start, pos + problem.end, {
                    class: 'placeholder-problem',
                    style: 'color: var(--mantine-color-red-text); text-decoration: wavy underline;',
                    title: problem.message,
                    'data-testid': 'placeholder-problem',
                  }),
                );
              }
            });
            return DecorationSet.create(state.doc, decorations);
          },
        },
      }),
    ];
  },
});

/** The document to show: sanitized; unparseable content is logged and treated as empty. */
export default function TiptapEditor({
  value,
  onChange,
  disabled,
  placeholders,
  minHeight = 120,
  label,
  ...rest
}: RichTextEditorProps) {
  const { t } = useTranslation();
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // A link the editor would not make (javascript:, http:) is said, not silently dropped; its text stays.
  const [refusedLink, setRefusedLink] = useState<string>();
  const valueRef = useRef(value);
  valueRef.current = value;
  const lastEmitted = useRef<string>('');
  const editor = useEditor({
    extensions: [
      specStarterKit((url, allowed) => setRefusedLink(allowed || !url.trim() ? undefined : url)),
      ListDepthLimit,
      // Notes shown again in edit mode (correspondence) carry mention tokens.
      MentionChips,
      ...(placeholders ? [PlaceholderProblems] : []),
    ],
    content: editableDoc(value),
    editorProps: {
      attributes: { 'aria-label': label ?? t('shell.richText'), role: 'textbox', 'aria-multiline': 'true' },
    },
    editable: !disabled,
    immediatelyRender: true,
    onUpdate({ editor }) {
      const doc = sanitizeRichText(editor.getJSON());
      const json = JSON.stringify(doc);
      // The editor also reports normalisations of what it was given: those are not edits.
      if (json === JSON.stringify(sanitizeRichText(valueRef.current))) return;
      lastEmitted.current = json;
      onChangeRef.current(doc);
    },
  });
  useEffect(() => {
    if (!editor) return;
    const incoming = editableDoc(value);
    const json = JSON.stringify(incoming);
    if (json !== lastEmitted.current && json !== JSON.stringify(sanitizeRichText(editor.getJSON()))) {
      lastEmitted.current = json;
      editor.commands.setContent(incoming, { emitUpdate: false });
    }
  }, [editor, value]);
  // Without emitting an update: that would report the old content as an edit of the new value.
  useEffect(() => editor?.setEditable(!disabled, false), [editor, disabled]);
  return (
    <MantineEditor editor={editor} data-testid={rest['data-testid']}>
      {!disabled && <RichTextToolbar headings />}
      <MantineEditor.Content style={{ minHeight }} />
      {refusedLink && !disabled && (
        <Text size="xs" c="orange" px="xs" pb={4} data-testid="rich-text-link-refused">
          {t('shell.linkRefused', { url: refusedLink.slice(0, 80) })}
        </Text>
      )}
    </MantineEditor>
  );
}
