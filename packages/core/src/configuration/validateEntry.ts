import { isIdentifier, isRequestNumberPrefix, normalizeUrl, parseHolidayLines } from '../inputRules.js';
import { ROLES } from '../permissions.js';
import { richTextTexts } from '../placeholders.js';
import { isValidScopePath, isWithinScope, normalizeScopePath } from '../scopePath.js';
import { isValidEmail } from '../validators.js';
import {
  ACCESS_LOG_MIN_MONTHS,
  type EntryDataOf,
  entryDataIssues,
  parseEntryData,
  RETENTION_MAX_MONTHS,
} from './entries.js';
import { type EntryFieldErrors, REQUIRED, sanitizeTemplateRichText, templateProblem } from './entryRules.js';
import type { EntryType } from './enums.js';
import { templateHasSubject } from './enums.js';
import { validateRequestItemType } from './validateItemType.js';

// The rules of each entry type beyond its shape. The editor shows these messages next to the
// fields; the server runs the same function and answers 400 with them, saving nothing.

export {
  type EntryFieldErrors,
  REQUIRED,
  sanitizeTemplateRichText,
  templateProblem,
} from './entryRules.js';

export interface EntryInput {
  id: string;
  name: string;
  order: number;
  type: EntryType;
  data: unknown;
}

function checkEmails(errors: EntryFieldErrors, field: string, values: string[]): string[] {
  const cleaned = values.map((v) => v.trim()).filter(Boolean);
  const bad = cleaned.find((v) => !isValidEmail(v));
  if (bad) errors[field] = `"${bad}" is not a valid email address.`;
  return cleaned;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 or IPv6 address with an optional prefix length. */
export function isCidr(value: string): boolean {
  const [address = '', prefix, ...rest] = value.trim().split('/');
  if (rest.length > 0) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && /^[0-9a-fA-F:]+$/.test(address) && address.includes(':') && isIpv6(address);
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

function isIpv6(address: string): boolean {
  const halves = address.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h ? h.split(':') : []));
  if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? groups.length < 8 : groups.length === 8;
}

type Validator<T extends EntryType> = (data: EntryDataOf[T], errors: EntryFieldErrors) => EntryDataOf[T];

const VALIDATORS: { [T in EntryType]: Validator<T> } = {
  configurationRoot(data, errors) {
    const scopePath = normalizeScopePath(data.scopePath);
    if (!isValidScopePath(scopePath))
      errors['data.scopePath'] = 'Enter a scope path such as /entityType/<id or name>/.';
    return { scopePath };
  },
  apiKeyEntry(data, errors) {
    if (!data.publicKey) errors['data.publicKey'] = 'Paste the RSA public key (PKCS#1).';
    return { ...data, apiScopes: [...new Set(data.apiScopes)] };
  },
  apiWebhookEntry(data, errors) {
    const url = normalizeUrl(data.url, { httpsOnly: true });
    if (!url) errors['data.url'] = data.url.trim() ? 'Enter a valid https URL.' : REQUIRED;
    return { url, publicKey: data.publicKey };
  },
  publicHolidaysEntry(data) {
    return { dates: parseHolidayLines(data.dates) };
  },
  scopeEntry(data, errors) {
    const scopePath = data.scopePath.trim() ? normalizeScopePath(data.scopePath) : '';
    if (!scopePath) errors['data.scopePath'] = REQUIRED;
    else if (!isValidScopePath(scopePath))
      errors['data.scopePath'] = 'Enter a scope path such as /entityType/<id or name>/.';
    const assign = data.assignWorkflowTaskScope.trim()
      ? normalizeScopePath(data.assignWorkflowTaskScope)
      : '';
    if (assign && !isValidScopePath(assign))
      errors['data.assignWorkflowTaskScope'] = 'Enter a scope path such as /entityType/<id or name>/.';
    const seen = new Set<string>();
    data.ipRanges.forEach((range, i) => {
      if (!isIdentifier(range.id))
        errors[`data.ipRanges.${i}.id`] = 'Start with a lowercase letter, then letters and digits.';
      else if (seen.has(range.id)) errors[`data.ipRanges.${i}.id`] = 'This range is already in the list.';
      seen.add(range.id);
      const bad = range.cidrs.find((c) => !isCidr(c));
      if (bad) errors[`data.ipRanges.${i}.cidrs`] = `"${bad}" is not an IP address or CIDR range.`;
    });
    const trusted = (data.trustedAddresses ?? []).map((c) => c.trim()).filter(Boolean);
    const untrusted = trusted.find((c) => !isCidr(c));
    if (untrusted) errors['data.trustedAddresses'] = `"${untrusted}" is not an IP address or CIDR range.`;
    else if (trusted.length > 0 && scopePath && scopePath !== '/')
      errors['data.trustedAddresses'] = 'Only the root scope (/) may trust addresses.';
    if (data.ipRanges.filter((r) => r.isDefault).length > 1)
      errors['data.ipRanges'] = 'Only one range can be the default.';
    for (const tag of Object.keys(data.scopeTags)) {
      if (!isIdentifier(tag)) errors['data.scopeTags'] = `"${tag}" is not a valid tag id.`;
    }
    return {
      ...data,
      scopePath,
      assignWorkflowTaskScope: assign,
      usages: [...new Set(data.usages)],
      ipRanges: data.ipRanges.map((r) => ({ ...r, cidrs: r.cidrs.map((c) => c.trim()).filter(Boolean) })),
      trustedAddresses: trusted,
    };
  },
  smartFormOptionEntry(data) {
    return { foreignId: data.foreignId.trim() };
  },
  templateEntry(data, errors) {
    const body = sanitizeTemplateRichText(data.body);
    const subject = templateHasSubject(data.usage) ? (data.subject ?? '').trim() : undefined;
    if (subject !== undefined) {
      if (!subject) errors['data.subject'] = REQUIRED;
      const problem = templateProblem([subject]);
      if (problem) errors['data.subject'] = problem;
    }
    const problem = templateProblem(richTextTexts(body));
    if (problem) errors['data.body'] = problem;
    return { usage: data.usage, subject, body };
  },
  taskTypeSettingsEntry(data, errors) {
    return {
      ...data,
      notifyOtherWhenTriggered: checkEmails(
        errors,
        'data.notifyOtherWhenTriggered',
        data.notifyOtherWhenTriggered,
      ),
      notifyOtherWhenCompleted: checkEmails(
        errors,
        'data.notifyOtherWhenCompleted',
        data.notifyOtherWhenCompleted,
      ),
    };
  },
  requestSettingsEntry(data, errors) {
    const prefix = data.requestNumberPrefix.trim().toUpperCase();
    if (!prefix) errors['data.requestNumberPrefix'] = REQUIRED;
    else if (!isRequestNumberPrefix(prefix)) errors['data.requestNumberPrefix'] = 'Exactly 3 letters.';
    const shared = data.sharedScopePath.trim() ? normalizeScopePath(data.sharedScopePath) : '';
    if (shared && !isValidScopePath(shared))
      errors['data.sharedScopePath'] = 'Enter a scope path such as /entityType/<id or name>/.';
    const out = { ...data, requestNumberPrefix: prefix, sharedScopePath: shared };
    for (const field of [
      'resultQualityAssuredRecipient',
      'resultQualityAssuredLargeFileRecipient',
      'resultDiscardedRecipient',
      'resultNotificationsBccRecipient',
    ] as const) {
      out[field] = data[field].trim();
      if (out[field] && !isValidEmail(out[field])) errors[`data.${field}`] = 'Enter a valid email address.';
    }
    out.notifyOtherWhenClosed = checkEmails(errors, 'data.notifyOtherWhenClosed', data.notifyOtherWhenClosed);
    out.notifyOtherWhenReOpened = checkEmails(
      errors,
      'data.notifyOtherWhenReOpened',
      data.notifyOtherWhenReOpened,
    );
    for (const field of ['customResultFileName', 'customInvoiceFileName'] as const) {
      out[field] = data[field].replace(/[\r\n]+/g, ' ').trim();
      const problem = templateProblem([out[field]]);
      if (problem) errors[`data.${field}`] = problem;
    }
    out.preSelectedRequestItemTypes = [...new Set(data.preSelectedRequestItemTypes)];
    return out;
  },
  requestItemTypeEntry(data, errors) {
    return validateRequestItemType(data, errors);
  },
  retentionEntry(data, errors) {
    for (const field of ['deleteFilesAfterMonths', 'deIdentifyAfterMonths'] as const) {
      const value = data[field];
      if (value !== null && (value < 1 || value > RETENTION_MAX_MONTHS))
        errors[`data.${field}`] =
          `Enter a number of months from 1 to ${RETENTION_MAX_MONTHS}, or leave it empty.`;
    }
    const keep = data.keepAccessLogMonths;
    if (keep !== null && (keep < ACCESS_LOG_MIN_MONTHS || keep > RETENTION_MAX_MONTHS))
      errors['data.keepAccessLogMonths'] =
        `Enter a number of months from ${ACCESS_LOG_MIN_MONTHS} to ${RETENTION_MAX_MONTHS}, or leave it empty.`;
    return {
      deleteFilesAfterMonths: data.deleteFilesAfterMonths,
      deIdentifyAfterMonths: data.deIdentifyAfterMonths,
      keepAccessLogMonths: keep,
    };
  },
  scimClientEntry(data, errors) {
    const seen = new Set<string>();
    const groupRoles = data.groupRoles.map((mapping, i) => {
      const group = mapping.group.trim();
      const scopePath = mapping.scopePath.trim() ? normalizeScopePath(mapping.scopePath) : '';
      if (!group) errors[`data.groupRoles.${i}.group`] = REQUIRED;
      else if (group.length > 200)
        errors[`data.groupRoles.${i}.group`] = 'Must be at most 200 characters long.';
      if (!(ROLES as readonly string[]).includes(mapping.role))
        errors[`data.groupRoles.${i}.role`] = 'Choose a role.';
      if (!scopePath) errors[`data.groupRoles.${i}.scopePath`] = REQUIRED;
      else if (!isValidScopePath(scopePath))
        errors[`data.groupRoles.${i}.scopePath`] = 'Enter a scope path such as /entityType/<id or name>/.';
      const key = `${group.toLowerCase()}|${mapping.role}|${scopePath}`;
      if (group && seen.has(key))
        errors[`data.groupRoles.${i}.group`] = 'This mapping is already in the list.';
      seen.add(key);
      return { group, role: mapping.role, scopePath };
    });
    return { subjectAttribute: data.subjectAttribute, groupRoles };
  },
};

/**
 * Checks an entry against the common rules and those of its type. Answers the cleaned entry data
 * (normalised, sanitised) and the errors by field path ('name', 'data.url', 'data.smartForm.0.name').
 */
export function validateEntry(
  input: EntryInput,
  options: { nestedIds?: boolean } = {},
): {
  data: unknown;
  errors: EntryFieldErrors;
} {
  const errors: EntryFieldErrors = {};
  if (!input.name?.trim()) errors.name = REQUIRED;
  if (!Number.isInteger(input.order)) errors.order = 'Enter a whole number.';
  if (
    input.type !== 'configurationRoot' &&
    !isIdentifier(input.id, { allowColon: options.nestedIds ?? true })
  ) {
    errors.id = 'Start with a lowercase letter, then letters and digits.';
  }
  const data = parseEntryData(input.type, input.data);
  if (!data) {
    const issues = entryDataIssues(input.type, input.data);
    if (Object.keys(issues).length === 0) errors.data = 'The entry does not have the fields of its type.';
    Object.assign(errors, issues);
    return { data: input.data, errors };
  }
  const cleaned = (VALIDATORS[input.type] as Validator<EntryType>)(data as never, errors);
  return { data: cleaned, errors };
}

/**
 * What an entry reaches beyond the administrator saving it: the scopes its SCIM group roles grant
 * roles at, and the scope whose settings a scope entry sets, outside `scopes` (where the
 * administrator holds configuration:edit). Answered as errors on those fields; the data is the
 * cleaned data of validateEntry. An administrator of /org/acme/ may not grant an administrator role
 * at / through a provider group, nor set the password policy of /org/globex/.
 */
export function entryScopesOutside(
  type: EntryType,
  data: unknown,
  scopes: readonly string[],
): EntryFieldErrors {
  const errors: EntryFieldErrors = {};
  const outside = (path: string) => path !== '' && !scopes.some((s) => isWithinScope(path, s));
  if (type === 'scimClientEntry') {
    const groupRoles = parseEntryData('scimClientEntry', data)?.groupRoles ?? [];
    groupRoles.forEach((mapping, i) => {
      if (outside(mapping.scopePath))
        errors[`data.groupRoles.${i}.scopePath`] =
          `${mapping.scopePath} lies outside your scopes: only an administrator of it may grant roles there.`;
    });
  }
  if (type === 'scopeEntry') {
    const scopePath = parseEntryData('scopeEntry', data)?.scopePath ?? '';
    if (outside(scopePath))
      errors['data.scopePath'] =
        `${scopePath} lies outside your scopes: only an administrator of it may set its settings.`;
  }
  return errors;
}
