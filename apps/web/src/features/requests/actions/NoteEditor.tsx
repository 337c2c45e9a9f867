import '@mantine/tiptap/styles.css';
import {
  MENTION_MIN_CHARS,
  type MentionSuggestion,
  mentionSuggestionsRoute,
  mentionToken,
  type RichTextDoc,
  sanitizeRichText,
} from '@dossier/core';
import { Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { RichTextEditor as MantineEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../../shell/ServicesContext';
import { MentionChips } from '../../../ui/mentionChips';
import { RichTextToolbar } from '../../../ui/RichTextToolbar';
import { specStarterKit } from '../../../ui/richTextKit';

// The note editor: rich text with @mentions. Typing '@' and at least two characters asks
// GET /requests/{n}/mention-suggestions; picking one writes the token `@[Name](userId)` (the format the
// server reads; see core requests/mentions.ts), which the editor shows as an "@Name" chip.

/** The '@query' just before the caret, with where it starts. */
function queryAtCaret(text: string): { query: string; length: number } | undefined {
  const query = /(^|\s)@([^\s@[\]()]*)$/.exec(text)?.[2];
  return query === undefined ? undefined : { query, length: query.length + 1 };
}

export function NoteEditor({
  requestNumber,
  value,
  onChange,
  error,
}: {
  requestNumber: string;
  value: RichTextDoc;
  onChange(doc: RichTextDoc): void;
  error?: string | undefined;
}) {
  const { api } = useServices();
  const { t } = useTranslation();
  const [query, setQuery] = useState<{ query: string; length: number }>();
  const [suggestions, setSuggestions] = useState<MentionSuggestion[]>([]);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const editor = useEditor({
    extensions: [specStarterKit(), MentionChips],
    content: value,
    editorProps: {
      attributes: { 'aria-label': t('shell.noteText'), role: 'textbox', 'aria-multiline': 'true' },
    },
    immediatelyRender: true,
    onUpdate({ editor }) {
      onChangeRef.current(sanitizeRichText(editor.getJSON()));
      const { $from } = editor.state.selection;
      setQuery(queryAtCaret($from.parent.textBetween(0, $from.parentOffset, '\n', ' ')));
    },
    onSelectionUpdate({ editor }) {
      const { $from } = editor.state.selection;
      setQuery(queryAtCaret($from.parent.textBetween(0, $from.parentOffset, '\n', ' ')));
    },
  });

  useEffect(() => {
    if (!query || query.query.length < MENTION_MIN_CHARS) return setSuggestions([]);
    let live = true;
    const timer = setTimeout(() => {
      api
        .call(mentionSuggestionsRoute, { params: { requestNumber }, query: { prefix: query.query } })
        .then((r) => live && setSuggestions(r.suggestions))
        .catch(() => live && setSuggestions([]));
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, requestNumber, query]);

  function pick(s: MentionSuggestion) {
    if (!editor || !query) return;
    const to = editor.state.selection.from;
    editor
      .chain()
      .focus()
      .insertContentAt({ from: to - query.length, to }, `${mentionToken(s.name, s.id)} `)
      .run();
    setQuery(undefined);
    setSuggestions([]);
  }

  return (
    <div style={{ position: 'relative' }}>
      <MantineEditor
        editor={editor}
        data-testid="note-editor"
        style={error ? { borderColor: 'var(--mantine-color-red-6)' } : undefined}
      >
        <RichTextToolbar />
        <MantineEditor.Content style={{ minHeight: 120 }} />
      </MantineEditor>
      {error && (
        <Text c="red" size="xs" mt={4}>
          {error}
        </Text>
      )}
      {query && suggestions.length > 0 && (
        <Paper
          withBorder
          shadow="md"
          pos="absolute"
          style={{ zIndex: 20, minWidth: 240 }}
          data-testid="mention-suggestions"
        >
          <Stack gap={0}>
            {suggestions.map((s) => (
              <UnstyledButton
                key={s.id}
                px="sm"
                py={6}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
                data-testid="mention-suggestion"
              >
                <Text size="sm">
                  {s.name}{' '}
                  <Text span size="xs" c="dimmed">
                    @{s.id}
                  </Text>
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
      )}
    </div>
  );
}
