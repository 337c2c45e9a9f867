import {
  MENTION_MIN_CHARS,
  type MentionSuggestion,
  mentionQueryAt,
  mentionSuggestionsRoute,
} from '@dossier/core';
import { Paper, Stack, Textarea, type TextareaProps, UnstyledButton } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useServices } from '../shell/ServicesContext';

/** Suggestions hide this long after the text area loses focus. */
export const MENTION_HIDE_MS = 200;

interface Props extends Omit<TextareaProps, 'value' | 'onChange'> {
  value: string;
  onChange(value: string): void;
  /** The request whose people are suggested (GET /requests/{n}/mention-suggestions). */
  requestNumber: string;
}

/** A text area where '@' and at least 2 characters ask the source for people to mention. */
export function MentionTextarea({ value, onChange, requestNumber, ...rest }: Props) {
  const { api } = useServices();
  const [suggestions, setSuggestions] = useState<MentionSuggestion[]>([]);
  const [query, setQuery] = useState<string>();
  const caret = useRef(0);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    if (!query || query.length < MENTION_MIN_CHARS) return setSuggestions([]);
    let live = true;
    api
      .call(mentionSuggestionsRoute, { params: { requestNumber }, query: { prefix: query } })
      .then((r) => live && setSuggestions(r.suggestions))
      .catch(() => live && setSuggestions([]));
    return () => {
      live = false;
    };
  }, [api, requestNumber, query]);
  useEffect(() => () => clearTimeout(hideTimer.current), []);

  function pick(s: MentionSuggestion) {
    const before = value.slice(0, caret.current).replace(/@[^\s@]*$/, `@${s.id} `);
    onChange(before + value.slice(caret.current));
    setQuery(undefined);
  }

  return (
    <div style={{ position: 'relative' }}>
      <Textarea
        {...rest}
        value={value}
        onChange={(e) => {
          caret.current = e.currentTarget.selectionStart ?? e.currentTarget.value.length;
          onChange(e.currentTarget.value);
          setQuery(mentionQueryAt(e.currentTarget.value, caret.current));
        }}
        onBlur={() => {
          hideTimer.current = setTimeout(() => setQuery(undefined), MENTION_HIDE_MS);
        }}
      />
      {query && suggestions.length > 0 && (
        <Paper withBorder shadow="sm" pos="absolute" style={{ zIndex: 10 }} data-testid="mention-suggestions">
          <Stack gap={0}>
            {suggestions.map((s) => (
              <UnstyledButton
                key={s.id}
                px="sm"
                py={4}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => pick(s)}
              >
                {s.name} <small>@{s.id}</small>
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
      )}
    </div>
  );
}
