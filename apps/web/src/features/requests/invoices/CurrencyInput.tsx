import { TextInput, type TextInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { parseCurrencyInput } from './money';

/** An amount typed in major units ("1,234.50"); the form keeps the text and sends minor units. */
export function CurrencyInput({
  value,
  onChange,
  error,
  ...rest
}: Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  value: string;
  onChange(text: string): void;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const invalid = value.trim() !== '' && parseCurrencyInput(value) === undefined;
  return (
    <TextInput
      {...rest}
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={invalid ? t('invoices.rules.currency') : error}
    />
  );
}
