import { formatMinorUnits } from '@dossier/core';

// The server words its amounts (remittance advice, refusals) with the same function.
export { formatMinorUnits };

// Currency input (validation rules): digits with optional thousands commas and up to two
// decimals, stored in minor units (x100). Parsed as text so no floating-point rounding creeps in.

const CURRENCY_INPUT = /^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/;

/** "1,234.5" → 123450; undefined when the text is not a currency amount (empty included). */
export function parseCurrencyInput(text: string): number | undefined {
  const trimmed = text.trim();
  if (!CURRENCY_INPUT.test(trimmed)) return undefined;
  const [whole, decimals = ''] = trimmed.replaceAll(',', '').split('.');
  const minor = Number(whole) * 100 + Number(decimals.padEnd(2, '0'));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** The text a currency input starts with for a known amount (empty when none). */
export const minorToInput = (minor: number | null | undefined) =>
  minor === null || minor === undefined ? '' : formatMinorUnits(minor);
