import { API_SCOPES } from '@dossier/core';
import { z } from 'zod';
import { CLOCK_SKEW_SECONDS, MAX_TOKEN_SECONDS } from './auth.js';
import type { ApiEndpoint } from './endpoints.js';

// The OpenAPI 3.1 document of /api/v1, generated from the endpoints' route contracts (the same zod
// schemas that check the input and, in tests, the answer) as JSON Schema 2020-12, which OpenAPI 3.1
// uses as is.

type Json = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  return rest;
}

const errorSchema = {
  type: 'object',
  required: ['message', 'code'],
  properties: {
    message: { type: 'string' },
    code: { type: 'string' },
    fields: { type: 'object', additionalProperties: { type: 'string' }, description: 'A message per field.' },
  },
};

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function parameters({ route }: ApiEndpoint): Json[] {
  const list: Json[] = [];
  for (const [where, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = jsonSchema(schema, 'input') as { properties?: Json; required?: string[] };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      list.push({
        name,
        in: where,
        required: where === 'path' || (json.required ?? []).includes(name),
        schema: property,
      });
    }
  }
  return list;
}

function operation(endpoint: ApiEndpoint): Json {
  const { route } = endpoint;
  const ok = endpoint.download
    ? { description: endpoint.answers, content: { 'application/octet-stream': { schema: {} } } }
    : {
        description: endpoint.answers,
        content: { 'application/json': { schema: jsonSchema(route.answer, 'output') } },
      };
  return {
    operationId: `${route.method.toLowerCase()}${route.path
      .replace('/api/v1', '')
      .split('/')
      .filter(Boolean)
      .map((part) => part.replace(/^:/, 'by-'))
      .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
      .join('')}`.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase()),
    tags: [endpoint.tag],
    summary: endpoint.summary,
    description: [endpoint.description, `Requires the API scope \`${endpoint.scope}\`.`]
      .filter(Boolean)
      .join('\n\n'),
    'x-api-scope': endpoint.scope,
    security: [{ apiKeyJwt: [endpoint.scope] }],
    parameters: parameters(endpoint),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body, 'input') } },
          },
        }
      : {}),
    responses: {
      [String(endpoint.status ?? 200)]: ok,
      ...(route.body || route.params || route.query
        ? { '400': error('Invalid input: a message per field.') }
        : {}),
      '401': error('The bearer token is missing or invalid (signature, kid, exp, iat, aud, jti).'),
      '403': error('The API key lacks the API scope of this endpoint.'),
      ...(route.params ? { '404': error("Not found, or outside the key's scope.") } : {}),
      ...(route.method !== 'GET' ? { '409': error('The state no longer allows this.') } : {}),
      '429': {
        ...error('Too many calls for this key; the Retry-After header says when to try again.'),
        headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } },
      },
    },
  };
}

export const toOpenApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

export function buildOpenApiDocument(
  endpoints: ApiEndpoint[],
  options: { audience: string; serverUrl: string },
) {
  const paths: Record<string, Json> = {};
  for (const endpoint of endpoints) {
    const path = toOpenApiPath(endpoint.route.path);
    paths[path] = { ...(paths[path] ?? {}), [endpoint.route.method.toLowerCase()]: operation(endpoint) };
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Dossier public API',
      version: '1.0.0',
      description:
        'Submit requests, read their status, results and invoices, manage payees and verify user ' +
        'credentials. Each call carries `Authorization: Bearer <JWT>`, a token the client signs with the ' +
        'private key of an API key created in the configuration editor (Administration → Configuration → ' +
        'API key). The key sees only the scope path of its configuration.',
    },
    servers: [{ url: options.serverUrl }],
    'x-audience': options.audience,
    'x-api-scopes': [...API_SCOPES],
    tags: [...new Set(endpoints.map((e) => e.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: { Error: errorSchema },
      securitySchemes: {
        apiKeyJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            `A JWT signed with RS256 (no other algorithm is accepted). Header: \`kid\` = the API key's ` +
            `Key ID. Claims: \`aud\` = \`${options.audience}\`; \`exp\` at most ${MAX_TOKEN_SECONDS} ` +
            `seconds ahead; \`iat\` not in the future; \`jti\` a token id never used before (a token ` +
            `serves one call). Clocks may differ by ${CLOCK_SKEW_SECONDS} seconds. Each endpoint needs ` +
            `one API scope of the key (listed per operation).`,
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
