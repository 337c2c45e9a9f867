import { z } from 'zod';

/** The body of every error answer. `fields` maps a field path to its message. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const SIGN_IN_FAILED = 'Invalid username and/or password.';
export const UNSPECIFIED_SERVER_ERROR = 'Unspecified Server Error';

/** The client-side message of a failed call: the status, a colon, and the server's message. */
export function formatHttpError(status: number, message: string | undefined, statusText = ''): string {
  const text = message && message.length > 0 ? message : statusText;
  return `${status}: ${text}`;
}

export function isUnauthorizedMessage(message: string): boolean {
  return message.startsWith('401: ');
}

/** The message of every answer refusing a form for its fields; the fields say what is wrong. */
export const FIELDS_INVALID = 'Some fields are missing or invalid.';

/**
 * The key of an error about the form as a whole (an issue without a path). Not `body`, which is
 * also the name of real fields (a note's or a mail's body) that would then show it.
 */
export const FORM_ERROR_KEY = '_';

/**
 * A zod error's issues as a message per field path ('contacts.0.phone'); the first message of a
 * field wins. `prefix` puts the paths under a field ('data'); `within` drops a leading segment
 * (paths relative to the part's 'data').
 */
export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  options: { prefix?: string; within?: string } = {},
): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (options.within !== undefined && path[0] === options.within) path.shift();
    if (options.prefix !== undefined) path.unshift(options.prefix);
    fields[path.join('.') || FORM_ERROR_KEY] ??= issue.message;
  }
  return fields;
}

/**
 * `schema` with the field errors of `rules` as its own issues (a path per field, 'contacts.0.phone'),
 * so the contract's body checks a form's rules where the shape is checked: the server when the
 * body arrives, the browser through `fieldErrorsOf(schema.safeParse(form).error?.issues ?? [])`.
 * The rules run once the shape holds (zod skips them after a type error).
 */
export function withFieldRules<S extends z.ZodType>(
  schema: S,
  rules: (value: z.output<S>) => Record<string, string>,
) {
  return schema.superRefine((value, ctx) => {
    for (const [field, message] of Object.entries(rules(value)))
      ctx.addIssue({ code: 'custom', path: field.split('.'), message });
  });
}
