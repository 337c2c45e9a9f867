import { type ErrorBody, FIELDS_INVALID, fieldErrorsOf } from '@dossier/core';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isDataException } from '../db/unavailable.js';

/** An error meant for the client: its status, message and, for forms, a message per field. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export { FIELDS_INVALID };

export const badRequest = (message: string, fields?: Record<string, string>) =>
  new HttpError(400, message, 'badRequest', fields);
/** A form refused for its fields: the one message, and a message per field. */
export const fieldsInvalid = (fields: Record<string, string>) => badRequest(FIELDS_INVALID, fields);
export const unauthorized = (message = 'Not signed in or the session has expired.') =>
  new HttpError(401, message, 'unauthorized');
export const forbidden = (message = 'You are not allowed to do this.') =>
  new HttpError(403, message, 'forbidden');
export const notFound = (message = 'Not found.') => new HttpError(404, message, 'notFound');
export const conflict = (message: string) => new HttpError(409, message, 'conflict');
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, 'tooManyRequests', undefined, { 'retry-after': String(retryAfterSeconds) });

const DATABASE_UNAVAILABLE = 'The service is briefly unavailable. Please try again in a few seconds.';
const DATABASE_RETRY_SECONDS = 5;

/** Maps every failure to `{ message, code, fields? }` with the right status; nothing leaks internals. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_SECONDS));
      return reply.status(503).send({ message: DATABASE_UNAVAILABLE, code: 'unavailable' });
    }
    if (isDataException(error)) {
      // A value PostgreSQL cannot store or compare (a NUL character, an impossible date, a number
      // out of range) that no schema caught: the input is wrong, not the server.
      request.log.warn({ err: error }, 'input refused by the database');
      return reply
        .status(400)
        .send({ message: 'Some value in the request is not valid.', code: 'invalidValue' });
    }
    const body = toErrorBody(error);
    if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    if (error instanceof HttpError && error.headers) reply.headers(error.headers);
    return reply.status(body.status).send({ message: body.message, code: body.code, fields: body.fields });
  });
}

function toErrorBody(error: FastifyError): ErrorBody & { status: number } {
  if (error instanceof HttpError) {
    return { status: error.status, message: error.message, code: error.code, fields: error.fields };
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = fieldErrorsOf(
      error.validation.map((issue) => {
        const path = issue.instancePath.split('/').filter(Boolean);
        const missing = issue.params?.missingProperty;
        return {
          path: path.length === 0 && missing ? [String(missing)] : path,
          message: issue.message ?? 'Invalid value.',
        };
      }),
    );
    // The fields carry the sentences; the message is the same sentence the services use, not
    // zod's "Invalid input: ..." (issue 22 item 7: a banner showed it).
    return { status: 400, message: FIELDS_INVALID, code: 'validation', fields };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: 'The request body is too large.', code: 'bodyTooLarge' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: 'Unsupported content type.', code: 'unsupportedMediaType' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, message: 'The request body is not valid JSON.', code: 'invalidJson' };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, message: error.message, code: 'badRequest' };
  }
  return { status: 500, message: 'Internal server error.', code: 'internal' };
}
