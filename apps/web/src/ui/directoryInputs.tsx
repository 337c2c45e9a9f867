import { cleanAddress, cleanWebAddress, countries, normalizeCountry } from '@dossier/core';
import {
  Select,
  type SelectProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

// The inputs of the shared input rules that rewrite what was typed: a country
// chosen from the list, a web address without credentials, an address of trimmed lines without
// commas. The rewriting is packages/core's, the same the server applies before storing, so what
// the field shows after leaving it is what will be stored.

type CountrySelectProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange(code: string | null): void;
};

/**
 * A country by name, stored as its ISO code. Typing a name and leaving the field chooses the first
 * match ("Australia"), so a typed name is never refused or cut short; text that names no country
 * chooses nothing.
 */
export function CountrySelect({ value, onChange, onBlur, required, ...rest }: CountrySelectProps) {
  const { t } = useTranslation();
  const data = useMemo(() => countries().map((c) => ({ value: c.code, label: c.name })), []);
  // A stored lowercase code or name (older data) is shown as the country it names.
  const known = normalizeCountry(value);
  const chosen = known.ok ? known.value : null;
  return (
    <Select
      {...rest}
      {...(required !== undefined && { required })}
      data={data}
      value={chosen}
      onChange={(code) => onChange(code)}
      onBlur={(event) => {
        // The text as typed is still in the input here: a whole country name (or code) chooses it
        // even when no option was highlighted (text pasted or filled in at once).
        const named = normalizeCountry(event.currentTarget.value);
        if (named.ok && named.value && named.value !== chosen) onChange(named.value);
        onBlur?.(event);
      }}
      searchable
      clearable={!required}
      selectFirstOptionOnChange
      autoSelectOnBlur
      nothingFoundMessage={t('accounts.fields.noSuchCountry')}
    />
  );
}

type WebAddressProps = Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange(value: string): void;
};

/** A web address: credentials are removed when the field is left. */
export function WebAddressInput({ value, onChange, onBlur, ...rest }: WebAddressProps) {
  return (
    <TextInput
      {...rest}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={(e) => {
        const cleaned = cleanWebAddress(e.currentTarget.value);
        if (cleaned !== e.currentTarget.value) onChange(cleaned);
        onBlur?.(e);
      }}
    />
  );
}

type AddressProps = Omit<TextareaProps, 'value' | 'onChange'> & {
  value: string | null | undefined;
  onChange(value: string): void;
};

/** A postal or street address: commas removed, lines trimmed and empty lines dropped on leaving. */
export function AddressTextarea({ value, onChange, onBlur, ...rest }: AddressProps) {
  return (
    <Textarea
      autosize
      minRows={2}
      {...rest}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value)}
      onBlur={(e) => {
        const cleaned = cleanAddress(e.currentTarget.value);
        if (cleaned !== e.currentTarget.value) onChange(cleaned);
        onBlur?.(e);
      }}
    />
  );
}
