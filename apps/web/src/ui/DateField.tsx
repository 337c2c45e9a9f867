import { formatLocaleDate, parseLocaleDate as parseDate } from '@dossier/core';
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
  past,
  onReadableChange,
  ...rest
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange(value: string | null): void;
  invalidMessage: string;
  /** A date in the past (a date of birth): a two-digit year means the latest such year, 85 → 1985. */
  past?: boolean | undefined;
  /** Told when the text turns into a date (or empty) and when it stops being one. */
  onReadableChange?(readable: boolean): void;
}) {
  const parseLocaleDate = (text: string) => parseDate(text, { past });
  const [text, setText] = useState(formatLocaleDate(value));
  useEffect(() => {
    setText((current) =>
      parseDate(current, { past }) === (value ?? undefined) ? current : formatLocaleDate(value),
    );
  }, [value, past]);
  const invalid = text.trim() !== '' && parseLocaleDate(text) === undefined;
  useEffect(() => {
    onReadableChange?.(!invalid);
  }, [invalid, onReadableChange]);
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
