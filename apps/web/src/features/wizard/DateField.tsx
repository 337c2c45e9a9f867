import { formatLocaleDate, parseLocaleDate } from '@dossier/core';
import { TextInput, type TextInputProps } from '@mantine/core';
import { useEffect, useState } from 'react';

/**
 * A date typed in the locale order (DD/MM/YYYY) and kept as YYYY-MM-DD: the value changes as soon
 * as the text is a valid date, and an invalid text is kept (and reported) until corrected.
 */
export function DateField({
  value,
  onChange,
  invalidMessage,
  error,
  ...rest
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange(value: string | null): void;
  invalidMessage: string;
}) {
  const [text, setText] = useState(formatLocaleDate(value));
  useEffect(() => {
    setText((current) =>
      parseLocaleDate(current) === (value ?? undefined) ? current : formatLocaleDate(value),
    );
  }, [value]);
  const invalid = text.trim() !== '' && parseLocaleDate(text) === undefined;
  return (
    <TextInput
      {...rest}
      placeholder="DD/MM/YYYY"
      value={text}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        const parsed = parseLocaleDate(next);
        if (parsed) onChange(parsed);
        else if (next.trim() === '') onChange(null);
      }}
      onBlur={() => {
        const parsed = parseLocaleDate(text);
        if (parsed) setText(formatLocaleDate(parsed));
      }}
      error={invalid ? invalidMessage : error}
    />
  );
}
