import { isValidEmail } from '@dossier/core';
import { z } from 'zod';
import { invalidValue } from './errors.js';
import type { ScimGroupRow, ScimUserRow } from './repository.js';

// The SCIM shapes of Dossier's users and groups (RFC 7643), and the reading of the bodies a
// provider sends. Unknown attributes (an enterprise extension, phone numbers) are accepted and
// ignored: providers send what they hold, and refusing it would stop provisioning altogether.

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const iso = (d: Date) => new Date(d).toISOString();

export function userResource(
  row: ScimUserRow,
  groups: { id: string; display_name: string }[],
  baseUrl: string,
) {
  return {
    schemas: [USER_SCHEMA],
    id: row.id,
    ...(row.scim_external_id ? { externalId: row.scim_external_id } : {}),
    userName: row.scim_user_name ?? row.id,
    name: { formatted: row.name },
    displayName: row.name,
    emails: [{ value: row.email, type: 'work', primary: true }],
    active: !row.disabled,
    groups: groups.map((g) => ({ value: g.id, display: g.display_name, $ref: `${baseUrl}/Groups/${g.id}` })),
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${baseUrl}/Users/${encodeURIComponent(row.id)}`,
      version: `W/"${row.version}"`,
    },
  };
}

export function groupResource(
  row: ScimGroupRow,
  members: { id: string; name: string }[],
  baseUrl: string,
  withMembers = true,
) {
  return {
    schemas: [GROUP_SCHEMA],
    id: row.id,
    ...(row.external_id ? { externalId: row.external_id } : {}),
    displayName: row.display_name,
    ...(withMembers
      ? {
          members: members.map((m) => ({
            value: m.id,
            display: m.name,
            $ref: `${baseUrl}/Users/${encodeURIComponent(m.id)}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${baseUrl}/Groups/${row.id}`,
      version: `W/"${row.version}"`,
    },
  };
}

export function listResponse<T>(resources: T[], total: number, startIndex: number) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    startIndex,
    itemsPerPage: resources.length,
    Resources: resources,
  };
}

// Entra ID sends booleans as the strings "True" and "False" in PATCH values.
const scimBoolean = z.preprocess(
  (v) => (typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v),
  z.boolean(),
);
const shortText = z.string().trim().max(200);
/** `schemas`, when sent, must name the resource's schema (providers often leave it out). */
const schemasNaming = (schema: string) =>
  z
    .array(z.string())
    .refine((list) => list.includes(schema), `schemas must include ${schema}.`)
    .optional();

/** The body of POST and PUT /Users (the route's contract), and of a patched user. */
export const userBodySchema = z.looseObject(
  {
    schemas: schemasNaming(USER_SCHEMA),
    userName: shortText.min(1),
    externalId: shortText.nullish(),
    displayName: shortText.nullish(),
    name: z
      .looseObject({
        formatted: shortText.nullish(),
        givenName: shortText.nullish(),
        familyName: shortText.nullish(),
      })
      .nullish(),
    emails: z
      .array(
        z.looseObject({
          value: z.string().trim().max(254),
          type: z.string().nullish(),
          primary: scimBoolean.nullish(),
        }),
      )
      .max(20)
      .nullish(),
    active: scimBoolean.nullish(),
  },
  { error: 'The body must be a SCIM User object.' },
);

export interface UserInput {
  userName: string;
  externalId: string | null;
  name: string;
  email: string;
  active: boolean;
}

function zodDetail(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'body: invalid';
  const where = issue.path.join('.') || 'body';
  return `${where}: ${issue.message}`;
}

/** A user body (of POST or PUT, or a patched resource) as Dossier's columns; 400 invalidValue if not. */
export function readUserBody(body: unknown): UserInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidValue('The body must be a SCIM User object.');
  const schemas = (body as { schemas?: unknown }).schemas;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(USER_SCHEMA)))
    throw invalidValue(`schemas must include ${USER_SCHEMA}.`);
  const parsed = userBodySchema.safeParse(body);
  if (!parsed.success) throw invalidValue(zodDetail(parsed.error));
  const u = parsed.data;
  const emails = u.emails ?? [];
  const chosen = emails.find((e) => e.primary) ?? emails.find((e) => e.type === 'work') ?? emails[0];
  const email = chosen?.value || (isValidEmail(u.userName) ? u.userName : '');
  if (!email) throw invalidValue('emails: a user needs an e-mail address (or a userName that is one).');
  if (!isValidEmail(email)) throw invalidValue(`emails: "${email}" is not a valid e-mail address.`);
  const given = [u.name?.givenName, u.name?.familyName].filter(Boolean).join(' ');
  const name = u.name?.formatted || given || u.displayName || u.userName;
  return {
    userName: u.userName,
    externalId: u.externalId || null,
    name: name.slice(0, 200),
    email,
    active: u.active ?? true,
  };
}

/** The body of POST and PUT /Groups (the route's contract), and of a patched group. */
export const groupBodySchema = z.looseObject(
  {
    schemas: schemasNaming(GROUP_SCHEMA),
    displayName: shortText.min(1),
    externalId: shortText.nullish(),
    members: z
      .array(z.looseObject({ value: z.string().trim().min(1).max(200) }))
      .max(10_000)
      .nullish(),
  },
  { error: 'The body must be a SCIM Group object.' },
);

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  memberIds: string[];
}

export function readGroupBody(body: unknown): GroupInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw invalidValue('The body must be a SCIM Group object.');
  const schemas = (body as { schemas?: unknown }).schemas;
  if (schemas !== undefined && !(Array.isArray(schemas) && schemas.includes(GROUP_SCHEMA)))
    throw invalidValue(`schemas must include ${GROUP_SCHEMA}.`);
  const parsed = groupBodySchema.safeParse(body);
  if (!parsed.success) throw invalidValue(zodDetail(parsed.error));
  return {
    displayName: parsed.data.displayName,
    externalId: parsed.data.externalId || null,
    memberIds: [...new Set((parsed.data.members ?? []).map((m) => m.value))],
  };
}
