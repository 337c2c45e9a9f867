// Choices shared by the wizard's forms.

/** Countries offered for applicants and recipients (ISO 3166 codes), the usual ones first. */
export const COUNTRIES = [
  { value: 'AU', label: 'Australia' },
  { value: 'NZ', label: 'New Zealand' },
  { value: 'GB', label: 'United Kingdom' },
  { value: 'IE', label: 'Ireland' },
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
  { value: 'SG', label: 'Singapore' },
  { value: 'IN', label: 'India' },
  { value: 'ZA', label: 'South Africa' },
];

export const countryName = (code: string | null | undefined) =>
  COUNTRIES.find((c) => c.value === code)?.label ?? code ?? '';
