import {
  decimalPrecisionOf,
  formatIsoTimeOfDay,
  isIdentifier,
  isRequestNumberPrefix,
  isValidScopePath,
  normalizeRequestNumberPrefix,
  normalizeScopePath,
  normalizeUrl,
  parseDecimalInput,
  parseIntegerInput,
  parseLines,
  timeInputToIso,
  urlProblem,
} from '@dossier/core';
import { Textarea, type TextareaProps, TextInput, type TextInputProps } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCommittedText } from './useCommittedText';

// The shared inputs over the packages/core input rules. Each commits on blur or
// 200 ms after the last key, and shows its own rule's error until the text is valid again.

type Base = Omit<TextInputProps, 'value' | 'onChange' | 'error'> & { error?: string | undefined };

interface TextProps extends Base {
  value: string;
  onCommit(value: string): void;
}

/** Plain text. */
export function CommittedTextInput({ value, onCommit, ...rest }: TextProps) {
  const t = useCommittedText(value, onCommit);
  return (
    <TextInput
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={t.onBlur}
    />
  );
}

/** An identifier: a lowercase letter, then letters and digits (colons where allowed). */
export function IdentifierInput({
  value,
  onCommit,
  allowColon,
  error,
  ...rest
}: TextProps & { allowColon?: boolean | undefined }) {
  const { t: tr } = useTranslation();
  const t = useCommittedText(value, onCommit);
  const invalid = t.text !== '' && !isIdentifier(t.text, { allowColon });
  return (
    <TextInput
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value.trim())}
      onBlur={t.onBlur}
      error={invalid ? tr('configuration.rules.identifier') : error}
    />
  );
}

interface NumberProps extends Base {
  value: number | undefined;
  onCommit(value: number | undefined): void;
  min?: number | undefined;
  max?: number | undefined;
}

/** Commits the parsed number, or nothing (empty text commits undefined; invalid text nothing). */
export function commitParsed(
  text: string,
  onCommit: (value: number | undefined) => void,
  parse: (text: string) => number | undefined,
) {
  if (text.trim() === '') return onCommit(undefined);
  const parsed = parse(text);
  if (parsed !== undefined) onCommit(parsed);
}

/** Digits only, clamped to min and max. */
export function IntegerInput({ value, onCommit, min, max, error, ...rest }: NumberProps) {
  const { t: tr } = useTranslation();
  // An invalid text is kept on screen with its error and never committed (it used to become 0).
  const t = useCommittedText(value === undefined ? '' : String(value), (text) =>
    commitParsed(text, onCommit, (x) => parseIntegerInput(x, { min, max })),
  );
  const invalid = t.text.trim() !== '' && !/^\d+$/.test(t.text.trim());
  return (
    <TextInput
      inputMode="numeric"
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={() => {
        t.onBlur();
        const parsed = parseIntegerInput(t.text, { min, max });
        if (parsed !== undefined) t.onChange(String(parsed));
      }}
      error={invalid ? tr('configuration.rules.integer') : error}
    />
  );
}

/**
 * Digits with at most `precision` decimals (2 unless given; 0 to 5), clamped to min and max. An
 * invalid text is kept with its error and not committed; a clamped value is shown after blur.
 */
export function DecimalInput({
  value,
  onCommit,
  min,
  max,
  precision,
  error,
  ...rest
}: NumberProps & { precision?: number | undefined }) {
  const { t: tr } = useTranslation();
  const rule = { min, max, precision };
  const t = useCommittedText(value === undefined ? '' : String(value), (text) =>
    commitParsed(text, onCommit, (x) => parseDecimalInput(x, rule)),
  );
  const invalid = t.text.trim() !== '' && parseDecimalInput(t.text, { precision }) === undefined;
  const places = decimalPrecisionOf(precision);
  return (
    <TextInput
      inputMode="decimal"
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={() => {
        t.onBlur();
        const parsed = parseDecimalInput(t.text, rule);
        if (parsed !== undefined) t.onChange(String(parsed));
      }}
      error={
        invalid
          ? places === 0
            ? tr('configuration.rules.integer')
            : tr('configuration.rules.decimal', { count: places })
          : error
      }
    />
  );
}

/** Exactly 3 uppercase letters; input uppercased, at most 3 characters. */
export function RequestNumberPrefixInput({ value, onCommit, error, ...rest }: TextProps) {
  const { t: tr } = useTranslation();
  const t = useCommittedText(value, onCommit);
  // Said as it is typed, as the server would say it on Save: a1b, ab and x-y are not three letters.
  const invalid = t.text !== '' && !isRequestNumberPrefix(t.text);
  return (
    <TextInput
      maxLength={3}
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(normalizeRequestNumberPrefix(e.currentTarget.value))}
      onBlur={t.onBlur}
      error={invalid ? tr('configuration.rules.requestNumberPrefix') : error}
    />
  );
}

/** A scope path; missing slashes are added on commit. */
export function ScopePathInput({ value, onCommit, error, ...rest }: TextProps) {
  const { t: tr } = useTranslation();
  const t = useCommittedText(value, (text) => onCommit(text.trim() ? normalizeScopePath(text) : ''));
  const invalid = t.text.trim() !== '' && !isValidScopePath(normalizeScopePath(t.text));
  return (
    <TextInput
      placeholder="/entityType/<id or name>/"
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={t.onBlur}
      error={invalid ? tr('configuration.rules.scopePath') : error}
    />
  );
}

/** A URL with its protocol; credentials stripped; https only when asked; invalid becomes empty. */
export function UrlInput({
  value,
  onCommit,
  httpsOnly,
  error,
  ...rest
}: TextProps & { httpsOnly?: boolean | undefined }) {
  const { t: tr } = useTranslation();
  // An invalid URL is stored empty (the rule), but the typed text stays on screen with the reason:
  // blanking it left the person guessing what was wrong with https:example.com.
  const typedInvalid = useRef('');
  const t = useCommittedText(value === '' ? typedInvalid.current : value, (text) => {
    const url = normalizeUrl(text, { httpsOnly });
    typedInvalid.current = url === '' ? text : '';
    onCommit(url);
  });
  const problem = urlProblem(t.text, { httpsOnly });
  return (
    <TextInput
      placeholder="https://"
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={t.onBlur}
      error={problem ? tr(`configuration.rules.urlProblem.${problem}`) : error}
    />
  );
}

/** A time of day, typed as hh:mm and stored as an ISO duration (PT9H30M). */
export function TimeOfDayInput({ value, onCommit, error, ...rest }: TextProps) {
  const { t: tr } = useTranslation();
  const shown = value ? formatIsoTimeOfDay(value) : '';
  const t = useCommittedText(shown, (text) => {
    const iso = timeInputToIso(text);
    if (iso || text.trim() === '') onCommit(iso ?? '');
  });
  const invalid = t.text.trim() !== '' && t.text !== shown && !timeInputToIso(t.text);
  return (
    <TextInput
      placeholder="09:30"
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={t.onBlur}
      error={invalid ? tr('configuration.rules.timeOfDay') : error}
    />
  );
}

interface LinesProps extends Omit<TextareaProps, 'value' | 'onChange' | 'error'> {
  value: string[];
  onCommit(value: string[]): void;
  /** Turns the lines into the stored list (default: trimmed, empty lines dropped). */
  parse?: (text: string) => string[];
  error?: string | undefined;
}

/** A multi-line list: one item per line; shown again as the stored (parsed) list after commit. */
export function LinesInput({ value, onCommit, parse = parseLines, ...rest }: LinesProps) {
  const t = useCommittedText(value.join('\n'), (text) => onCommit(parse(text)));
  return (
    <Textarea
      autosize
      minRows={3}
      {...rest}
      value={t.text}
      onChange={(e) => t.onChange(e.currentTarget.value)}
      onBlur={() => {
        t.onBlur();
        t.onChange(parse(t.text).join('\n'));
        t.onBlur();
      }}
    />
  );
}
