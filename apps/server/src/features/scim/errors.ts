import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isDataException } from '../../db/unavailable.js';
import { HttpError } from '../../http/errors.js';

// Errors of the SCIM endpoints in SCIM's own shape (RFC 7644 §3.12): identity providers read
// `status`, `scimType` and `detail`, not Dossier's `{ message, code }`. Bad input is always a 4xx.

export const ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';
export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly scimType?: ScimType,
  ) {
    super(detail);
  }
}

export const invalidValue = (detail: string) => new ScimError(400, detail, 'invalidValue');
export const invalidFilter = (detail: string) => new ScimError(400, detail, 'invalidFilter');
export const uniqueness = (detail: string) => new ScimError(409, detail, 'uniqueness');
export const scimNotFound = (detail: string) => new ScimError(404, detail);

export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return { schemas: [ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

function toScimError(error: FastifyError): ScimError {
  if (error instanceof ScimError) return error;
  if (error instanceof HttpError) {
    const detail = error.fields
      ? `${error.message} ${Object.entries(error.fields)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' ')}`
      : error.message;
    return new ScimError(error.status, detail, error.status === 400 ? 'invalidValue' : undefined);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0];
    // A whole-body or whole-query refusal has no path: then the part of the call it is about.
    const where =
      issue?.instancePath.replace(/^\//, '').replaceAll('/', '.') || (error.validationContext ?? 'query');
    return invalidValue(`${where}: ${issue?.message ?? 'Invalid value.'}`);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ScimError(413, 'The request body is too large.', 'tooMany');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ScimError(415, 'Send the body as application/scim+json or application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ScimError(400, 'The request body is not valid JSON.', 'invalidSyntax');
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500)
    return new ScimError(error.statusCode, error.message);
  return new ScimError(500, 'The request failed.');
}

/** The error handler of the SCIM routes' plugin (encapsulated: the rest of the app keeps its own). */
export function installScimErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .type(SCIM_CONTENT_TYPE)
        .send(scimErrorBody(503, 'The service is briefly unavailable.'));
    }
    const scim = isDataException(error)
      ? invalidValue('Some value in the request is not valid.')
      : toScimError(error);
    if (scim.status >= 500) request.log.error({ err: error }, 'SCIM request failed');
    if (scim.status === 401)
      reply.header('www-authenticate', 'Bearer realm="dossier-scim", error="invalid_token"');
    return reply
      .status(scim.status)
      .type(SCIM_CONTENT_TYPE)
      .send(scimErrorBody(scim.status, scim.message, scim.scimType));
  });
}
