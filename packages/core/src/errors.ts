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
