import { defineRoute } from '@dossier/core';
import { z } from 'zod';
import { GROUP_SCHEMA, groupBodySchema, LIST_SCHEMA, USER_SCHEMA, userBodySchema } from './resources.js';

// The route contracts of SCIM 2.0 (RFC 7643/7644) under /scim/v2, served by http/serve.ts like every
// other route: their schemas check the input, and in tests every answer is checked against the SCIM
// shapes below. They live with the server, not in packages/core/src/contracts: identity providers
// call them, never the web (whose two SCIM token routes are in core's contracts/scim.ts).

const PREFIX = '/scim/v2';
const isoDate = z.string().describe('ISO 8601 date-time');

const idParams = z.object({ id: z.string().min(1).max(300) });
const listQuery = z.object({
  filter: z.string().max(1000).optional(),
  startIndex: z.coerce.number().int().min(1).max(1_000_000_000).optional(),
  count: z.coerce.number().int().min(0).max(1_000_000).optional(),
  attributes: z.string().max(1000).optional(),
  excludedAttributes: z.string().max(1000).optional(),
});

/**
 * A PatchOp message (RFC 7644 §3.5.2), read by patch.ts: its refusals are `invalidSyntax`, as the
 * RFC wants, which a check of the route (always `invalidValue`) would not answer.
 */
const patchBody = z.unknown();
/** DELETE answers 204 without a body. */
const noContent = z.undefined();

const meta = z.object({
  resourceType: z.string(),
  created: isoDate,
  lastModified: isoDate,
  location: z.string(),
  version: z.string(),
});
const reference = z.object({ value: z.string(), display: z.string(), $ref: z.string() });

export const userResourceSchema = z.object({
  schemas: z.array(z.string()).describe(`[${USER_SCHEMA}]`),
  id: z.string(),
  externalId: z.string().optional(),
  userName: z.string(),
  name: z.object({ formatted: z.string() }),
  displayName: z.string(),
  emails: z.array(z.object({ value: z.string(), type: z.string(), primary: z.boolean() })),
  active: z.boolean(),
  groups: z.array(reference),
  meta,
});
export const groupResourceSchema = z.object({
  schemas: z.array(z.string()).describe(`[${GROUP_SCHEMA}]`),
  id: z.string(),
  externalId: z.string().optional(),
  displayName: z.string(),
  /** Left out when the client asked for excludedAttributes=members. */
  members: z.array(reference).optional(),
  meta,
});

const listOf = <T extends z.ZodType>(resource: T) =>
  z.object({
    schemas: z.array(z.string()).describe(`[${LIST_SCHEMA}]`),
    totalResults: z.number(),
    startIndex: z.number(),
    itemsPerPage: z.number(),
    Resources: z.array(resource),
  });

const discoveryMeta = z.object({ resourceType: z.string(), location: z.string() });
const supported = z.object({ supported: z.boolean() });
export const serviceProviderConfigSchema = z.object({
  schemas: z.array(z.string()),
  patch: supported,
  bulk: supported.extend({ maxOperations: z.number(), maxPayloadSize: z.number() }),
  filter: supported.extend({ maxResults: z.number() }),
  changePassword: supported,
  sort: supported,
  etag: supported,
  authenticationSchemes: z.array(
    z.object({ type: z.string(), name: z.string(), description: z.string(), primary: z.boolean() }),
  ),
  meta: discoveryMeta,
});
export const resourceTypeSchema = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  name: z.string(),
  endpoint: z.string(),
  schema: z.string(),
  meta: discoveryMeta,
});
const attributeFields = {
  name: z.string(),
  type: z.string(),
  multiValued: z.boolean(),
  description: z.string(),
  required: z.boolean(),
  caseExact: z.boolean(),
  mutability: z.string(),
  returned: z.string(),
  uniqueness: z.string(),
};
// Sub-attributes go one level deep (RFC 7643 §2.4: a complex attribute holds no complex one).
const attribute = z.object({
  ...attributeFields,
  subAttributes: z.array(z.object(attributeFields)).optional(),
});
export const schemaDefinitionSchema = z.object({
  schemas: z.array(z.string()),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  attributes: z.array(attribute),
  meta: discoveryMeta,
});

export const serviceProviderConfigRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/ServiceProviderConfig`,
  answer: serviceProviderConfigSchema,
});
export const resourceTypesRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/ResourceTypes`,
  answer: listOf(resourceTypeSchema),
});
export const resourceTypeRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/ResourceTypes/:id`,
  params: idParams,
  answer: resourceTypeSchema,
});
export const schemasRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Schemas`,
  answer: listOf(schemaDefinitionSchema),
});
export const schemaRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Schemas/:id`,
  params: idParams,
  answer: schemaDefinitionSchema,
});

export const listUsersRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Users`,
  query: listQuery,
  answer: listOf(userResourceSchema),
});
export const createUserRoute = defineRoute({
  method: 'POST',
  path: `${PREFIX}/Users`,
  body: userBodySchema,
  answer: userResourceSchema,
});
export const getUserRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Users/:id`,
  params: idParams,
  answer: userResourceSchema,
});
export const replaceUserRoute = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/Users/:id`,
  params: idParams,
  body: userBodySchema,
  answer: userResourceSchema,
});
export const patchUserRoute = defineRoute({
  method: 'PATCH',
  path: `${PREFIX}/Users/:id`,
  params: idParams,
  body: patchBody,
  answer: userResourceSchema,
});
export const deleteUserRoute = defineRoute({
  method: 'DELETE',
  path: `${PREFIX}/Users/:id`,
  params: idParams,
  answer: noContent,
});

export const listGroupsRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Groups`,
  query: listQuery,
  answer: listOf(groupResourceSchema),
});
export const createGroupRoute = defineRoute({
  method: 'POST',
  path: `${PREFIX}/Groups`,
  body: groupBodySchema,
  answer: groupResourceSchema,
});
export const getGroupRoute = defineRoute({
  method: 'GET',
  path: `${PREFIX}/Groups/:id`,
  params: idParams,
  answer: groupResourceSchema,
});
export const replaceGroupRoute = defineRoute({
  method: 'PUT',
  path: `${PREFIX}/Groups/:id`,
  params: idParams,
  body: groupBodySchema,
  answer: groupResourceSchema,
});
export const patchGroupRoute = defineRoute({
  method: 'PATCH',
  path: `${PREFIX}/Groups/:id`,
  params: idParams,
  body: patchBody,
  answer: groupResourceSchema,
});
export const deleteGroupRoute = defineRoute({
  method: 'DELETE',
  path: `${PREFIX}/Groups/:id`,
  params: idParams,
  answer: noContent,
});
