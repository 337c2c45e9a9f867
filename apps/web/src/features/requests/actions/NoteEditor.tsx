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
  // The suggestion Enter picks: the first, moved with the arrow keys (the mouse highlights too).
  const [highlighted, setHighlighted] = useState(0);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // The editor's key handler is made once: it reads the list as it is now through this ref.
  const keys = useRef<(event: KeyboardEvent) => boolean>(() => false);

  const editor = useEditor({
    extensions: [specStarterKit(), MentionChips],
    content: value,
    editorProps: {
      attributes: { 'aria-label': t('shell.noteText'), role: 'textbox', 'aria-multiline': 'true' },
      handleKeyDown: (_view, event) => keys.current(event),
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
        .then((r) => {
          if (!live) return;
          setSuggestions(r.suggestions);
          setHighlighted(0);
        })
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

  const open = !!query && suggestions.length > 0;
  keys.current = (event) => {
    if (!open) return false;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setHighlighted((h) => (h + step + suggestions.length) % suggestions.length);
      return true;
    }
    if (event.key === 'Enter' && !event.shiftKey) {
      const chosen = suggestions[highlighted];
      if (!chosen) return false;
      pick(chosen);
      return true;
    }
    if (event.key === 'Escape') {
      setQuery(undefined);
      setSuggestions([]);
      return true;
    }
    return false;
  };

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
      {open && (
        <Paper
          withBorder
          shadow="md"
          pos="absolute"
          style={{ zIndex: 20, minWidth: 240 }}
          data-testid="mention-suggestions"
        >
          <Stack gap={0} role="listbox">
            {suggestions.map((s, i) => (
              <UnstyledButton
                key={s.id}
                px="sm"
                py={6}
                role="option"
                aria-selected={i === highlighted}
                {...(i === highlighted ? { bg: 'var(--mantine-color-blue-light)' } : {})}
                onMouseEnter={() => setHighlighted(i)}
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
