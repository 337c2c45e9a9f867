import { normalizeCountry } from './countries.js';
import { type RecipientForm, recipientFormSchema, withKnownTags } from './directory.js';
import { withFieldRules } from './errors.js';
import { normalizePhone } from './phone.js';
import type { FieldErrors } from './userForm.js';
import { validateEmail, validateWebAddress } from './validators.js';

// A recipient's rules, run by the admin edit page before saving and by the server again. They
// check phone numbers with libphonenumber, so they are apart from the shapes in directory.ts,
// which pages that never check a phone number parse.

const blank = (v: string | null | undefined) => (v ?? '').trim().length === 0;

export function validateRecipient(form: Partial<RecipientForm>): FieldErrors {
  const errors: FieldErrors = {};
  if (blank(form.name)) errors.name = 'Name is required.';
  if (blank(form.phone)) errors.phone = 'Phone is required.';
  else {
    const phone = normalizePhone(form.phone ?? '', form.country);
    if (!phone.ok) errors.phone = phone.message;
  }
  if (!blank(form.fax)) {
    const fax = normalizePhone(form.fax ?? '', form.country);
    if (!fax.ok) errors.fax = fax.message;
  }
  if (!blank(form.email) && !validateEmail(form.email ?? '').ok)
    errors.email = 'Enter a valid email address.';
  if (!blank(form.webSiteUrl)) {
    const url = validateWebAddress(form.webSiteUrl ?? '');
    if (!url.ok) errors.webSiteUrl = url.message;
  }
  const country = normalizeCountry(form.country);
  if (!country.ok) errors.country = country.message;
  for (const [id, tag] of Object.entries(form.tags ?? {})) {
    if (tag.isRequired && blank(tag.value)) errors[`tags.${id}`] = `${tag.name || id} is required.`;
    else if (!blank(tag.value) && !tag.values.includes(tag.value ?? ''))
      errors[`tags.${id}`] = 'Choose one of the values.';
  }
  (form.contacts ?? []).forEach((contact, index) => {
    if (blank(contact.name)) return; // dropped on save
    if (!blank(contact.email) && !validateEmail(contact.email ?? '').ok) {
      errors[`contacts.${index}.email`] = 'Enter a valid email address.';
    }
    if (!blank(contact.phone) && !normalizePhone(contact.phone ?? '', form.country).ok) {
      errors[`contacts.${index}.phone`] = 'Enter a valid phone number.';
    }
  });
  return errors;
}

/**
 * The body of saving a recipient (admin edit page): the form with its rules, the tags checked
 * against the known definitions, so the page and the server refuse the same fields alike.
 */
export const recipientBodySchema = withFieldRules(recipientFormSchema, (form) =>
  validateRecipient({ ...form, tags: withKnownTags(form.tags) }),
);
