import { z } from 'zod';

// Field errors are shown to users next to their fields. Zod's own English messages ("Invalid
// input: expected nonoptional, received undefined") describe its internals, so every schema of
// the server gets these instead. A message written on a schema still wins; an issue not named here
// keeps zod's text.

export const REQUIRED_MESSAGE = 'This field is required.';
export const INVALID_MESSAGE = 'This value is not valid.';

type Issue = z.core.$ZodRawIssue;

/** The message for a zod issue a user may see; undefined leaves zod's own. */
export function userMessageOf(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      // A missing key arrives as undefined, whatever type (or `nonoptional`) was expected.
      return issue.input === undefined || issue.input === null ? REQUIRED_MESSAGE : INVALID_MESSAGE;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string')
        return min <= 1 ? REQUIRED_MESSAGE : `Must be at least ${min} characters long.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return min <= 1 ? 'Choose at least one.' : `Choose at least ${min}.`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return issue.inclusive === false ? `Must be more than ${min}.` : `Must be at least ${min}.`;
      return INVALID_MESSAGE;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `Must be at most ${max} characters long.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Choose at most ${max}.`;
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint')
        return issue.inclusive === false ? `Must be less than ${max}.` : `Must be at most ${max}.`;
      return INVALID_MESSAGE;
    }
    case 'invalid_value':
      return issue.input === undefined ? REQUIRED_MESSAGE : 'Choose one of the offered values.';
    case 'invalid_format':
      return issue.format === 'email' ? 'Not a valid email address.' : INVALID_MESSAGE;
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'not_multiple_of':
      return issue.input === undefined ? REQUIRED_MESSAGE : INVALID_MESSAGE;
    case 'unrecognized_keys':
      return `Unknown fields: ${issue.keys.join(', ')}.`;
    default:
      return undefined;
  }
}

let installed = false;

/** Makes userMessageOf the message of every zod issue in this process (once). */
export function installZodMessages(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: userMessageOf });
}
