// Currencies a payee may be paid in. AUD is the default when no other is flagged default.

export interface Currency {
  code: string;
  name: string;
  isDefault?: boolean;
}

export const CURRENCIES: readonly Currency[] = [
  { code: 'AUD', name: 'Australian Dollar', isDefault: true },
  { code: 'NZD', name: 'New Zealand Dollar' },
  { code: 'USD', name: 'US Dollar' },
  { code: 'GBP', name: 'Pound Sterling' },
  { code: 'EUR', name: 'Euro' },
];

export function defaultCurrency(list: readonly Currency[] = CURRENCIES): string {
  return list.find((c) => c.isDefault)?.code ?? 'AUD';
}

export function isCurrency(code: string, list: readonly Currency[] = CURRENCIES): boolean {
  return list.some((c) => c.code === code);
}
