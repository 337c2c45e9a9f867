import { z } from 'zod';
import { normalizeCountry } from './countries.js';
import { isCurrency } from './currencies.js';
import { withFieldRules } from './errors.js';
import type { FieldErrors } from './userForm.js';
import { cleanAddress, cleanWebAddress, validateEmail, validateWebAddress } from './validators.js';

// Recipients and payees: the bodies the edit pages post and their rules. A recipient's rules check
// phone numbers, so they are apart (recipientRules.ts): the request's recipient uses the shapes
// here, and the web app's first load parses it (the task list), so nothing here may bring in
// libphonenumber.

const text = (max: number) => z.string().max(max);

export const recipientTagSchema = z.object({
  id: text(100),
  name: text(200),
  values: z.array(text(200)).max(100),
  isRequired: z.boolean().default(false),
  value: text(200).nullish(),
});

export const recipientContactSchema = z.object({
  name: text(200).default(''),
  position: text(200).nullish(),
  phone: text(40).nullish(),
  email: text(254).nullish(),
});
export type RecipientContact = z.infer<typeof recipientContactSchema>;

export const recipientFormSchema = z.object({
  disabled: z.boolean().default(false),
  tags: z.record(text(100), recipientTagSchema).default({}),
  name: text(300).default(''),
  phone: text(40).default(''),
  fax: text(40).nullish(),
  email: text(254).nullish(),
  webSiteUrl: text(500).nullish(),
  streetAddress: text(1000).nullish(),
  postalAddress: text(1000).nullish(),
  /** An ISO code; a country's English name is taken too and stored as its code. */
  country: text(100).nullish(),
  notes: text(10_000).nullish(),
  /** Uploaded files (POST /files), given to the recipient when it is saved. */
  attachments: z
    .array(z.object({ key: text(300), name: text(300).nullish() }))
    .max(100)
    .default([]),
  contacts: z.array(recipientContactSchema).max(100).default([]),
  version: z.number().int().min(0).optional(),
});
export type RecipientForm = z.infer<typeof recipientFormSchema>;

// Tags every recipient carries until tag definitions come from the configuration: the kind of
// recipient (required) and the region it serves.
export const RECIPIENT_TAGS = {
  kind: { id: 'kind', name: 'Kind', values: ['doctor', 'hospital', 'agency', 'other'], isRequired: true },
  region: {
    id: 'region',
    name: 'Region',
    values: ['nsw', 'vic', 'qld', 'wa', 'sa', 'tas', 'act', 'nt', 'nz'],
    isRequired: false,
  },
} as const;

export type RecipientTagValue = {
  id: string;
  name: string;
  values: string[];
  isRequired: boolean;
  value?: string | null;
};

/**
 * The known tag definitions with the values chosen in `stored` (by tag id, trimmed, empty as null):
 * what a recipient's tags are, whatever definitions a form sent along.
 */
export function withKnownTags(
  stored: Record<string, { value?: string | null | undefined } | undefined>,
): Record<string, RecipientTagValue> {
  const tags: Record<string, RecipientTagValue> = {};
  for (const [id, def] of Object.entries(RECIPIENT_TAGS)) {
    const value = stored[id]?.value?.trim() || null;
    tags[id] = { ...def, values: [...def.values], value };
  }
  return tags;
}

const blank = (v: string | null | undefined) => (v ?? '').trim().length === 0;

/** A contact without a name is dropped when saving. */
export function dropUnnamedContacts(contacts: readonly RecipientContact[]): RecipientContact[] {
  return contacts.filter((c) => !blank(c.name));
}

const orNull = (v: string) => (v.length === 0 ? null : v);

/**
 * The fields the shared input rules rewrite, as they are stored: the web address without
 * credentials, addresses one trimmed line per line without commas, the country as its ISO code.
 * The caller has validated the form (an invalid value is kept as typed).
 */
export function cleanedDirectoryFields(form: {
  webSiteUrl?: string | null | undefined;
  streetAddress?: string | null | undefined;
  postalAddress?: string | null | undefined;
  country?: string | null | undefined;
}) {
  const country = normalizeCountry(form.country);
  return {
    webSiteUrl: orNull(cleanWebAddress(form.webSiteUrl)),
    streetAddress: orNull(cleanAddress(form.streetAddress)),
    postalAddress: orNull(cleanAddress(form.postalAddress)),
    country: country.ok ? country.value : orNull((form.country ?? '').trim()),
  };
}

export const payeeFormSchema = z.object({
  disabled: z.boolean().default(false),
  name: text(300).default(''),
  referenceNumber: text(100).nullish(),
  email: text(254).nullish(),
  bankAccount: text(100).nullish(),
  currency: text(3).default(''),
  foreignReference: z.object({ label: text(200), url: text(1000) }).nullish(),
  /** The scope that owns a new payee, chosen from the view's scopes (else the editor's own). */
  scope: text(300).nullish(),
  version: z.number().int().min(0).optional(),
});
export type PayeeForm = z.infer<typeof payeeFormSchema>;

export function validatePayee(form: Partial<PayeeForm>): FieldErrors {
  const errors: FieldErrors = {};
  if (blank(form.name)) errors.name = 'Name is required.';
  if (blank(form.currency)) errors.currency = 'Currency is required.';
  else if (!isCurrency(form.currency ?? '')) errors.currency = 'Choose one of the currencies.';
  if (!blank(form.email) && !validateEmail(form.email ?? '').ok)
    errors.email = 'Enter a valid email address.';
  const url = form.foreignReference?.url;
  if (!blank(url)) {
    const checked = validateWebAddress(url ?? '');
    if (!checked.ok) errors['foreignReference.url'] = checked.message;
  }
  return errors;
}

/** The body of saving a payee (admin edit page): the form with its rules (validatePayee). */
export const payeeBodySchema = withFieldRules(payeeFormSchema, validatePayee);
