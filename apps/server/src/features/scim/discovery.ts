import { GROUP_SCHEMA, LIST_SCHEMA, USER_SCHEMA } from './resources.js';
import { MAX_COUNT } from './users.js';

// The discovery endpoints (RFC 7644 §4): what this service provider supports, its resource types
// and the attributes of their schemas. They describe the service, not anyone's data, so they are
// answered without a token, as the RFC allows.

interface Attribute {
  name: string;
  type: string;
  multiValued: boolean;
  description: string;
  required: boolean;
  caseExact: boolean;
  mutability: string;
  returned: string;
  uniqueness: string;
  subAttributes?: Attribute[];
}

const attribute = (
  name: string,
  type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime',
  options: {
    multiValued?: boolean;
    required?: boolean;
    mutability?: 'readOnly' | 'readWrite' | 'immutable';
    uniqueness?: 'none' | 'server';
    caseExact?: boolean;
    subAttributes?: Attribute[];
    description: string;
  },
): Attribute => ({
  name,
  type,
  multiValued: options.multiValued ?? false,
  description: options.description,
  required: options.required ?? false,
  caseExact: options.caseExact ?? false,
  mutability: options.mutability ?? 'readWrite',
  returned: 'default',
  uniqueness: options.uniqueness ?? 'none',
  ...(options.subAttributes ? { subAttributes: options.subAttributes } : {}),
});

const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export function schemas(baseUrl: string) {
  const user = {
    schemas: [SCHEMA_SCHEMA],
    id: USER_SCHEMA,
    name: 'User',
    description: 'A Dossier user account',
    attributes: [
      attribute('userName', 'string', {
        required: true,
        uniqueness: 'server',
        description: 'The name the provider knows the user by; a new user id is made from it.',
      }),
      attribute('externalId', 'string', {
        caseExact: true,
        description:
          "The provider's id of the user (the sub single sign-on matches, unless the client says userName).",
      }),
      attribute('name', 'complex', {
        description: 'The name shown in Dossier.',
        subAttributes: [
          attribute('formatted', 'string', { description: 'The full name.' }),
          attribute('givenName', 'string', { description: 'Given name.' }),
          attribute('familyName', 'string', { description: 'Family name.' }),
        ],
      }),
      attribute('displayName', 'string', { description: 'Used as the name when name is absent.' }),
      attribute('emails', 'complex', {
        multiValued: true,
        required: true,
        description: 'The primary (or work, or first) address becomes the account e-mail.',
        subAttributes: [
          attribute('value', 'string', { description: 'The address.' }),
          attribute('type', 'string', { description: 'work, home, …' }),
          attribute('primary', 'boolean', { description: 'The one to use.' }),
        ],
      }),
      attribute('active', 'boolean', {
        description: 'false disables the account and signs it out everywhere.',
      }),
      attribute('groups', 'complex', {
        multiValued: true,
        mutability: 'readOnly',
        description: 'The groups of this client the user belongs to.',
        subAttributes: [
          attribute('value', 'string', { mutability: 'readOnly', description: 'The group id.' }),
          attribute('display', 'string', { mutability: 'readOnly', description: 'The group name.' }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${USER_SCHEMA}` },
  };
  const group = {
    schemas: [SCHEMA_SCHEMA],
    id: GROUP_SCHEMA,
    name: 'Group',
    description: "A provider group; the client's mapping turns membership into roles.",
    attributes: [
      attribute('displayName', 'string', {
        required: true,
        uniqueness: 'server',
        description: 'The group name.',
      }),
      attribute('externalId', 'string', { caseExact: true, description: "The provider's id of the group." }),
      attribute('members', 'complex', {
        multiValued: true,
        description: 'Users of the group.',
        subAttributes: [
          attribute('value', 'string', { mutability: 'immutable', description: 'The user id.' }),
          attribute('display', 'string', { mutability: 'readOnly', description: 'The user name.' }),
        ],
      }),
    ],
    meta: { resourceType: 'Schema', location: `${baseUrl}/Schemas/${GROUP_SCHEMA}` },
  };
  return [user, group];
}

export function resourceTypes(baseUrl: string) {
  return [
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'User',
      name: 'User',
      endpoint: '/Users',
      schema: USER_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/User` },
    },
    {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:ResourceType'],
      id: 'Group',
      name: 'Group',
      endpoint: '/Groups',
      schema: GROUP_SCHEMA,
      meta: { resourceType: 'ResourceType', location: `${baseUrl}/ResourceTypes/Group` },
    },
  ];
}

export function serviceProviderConfig(baseUrl: string) {
  return {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: MAX_COUNT },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'Bearer token',
        description: 'The token made for the SCIM client in the configuration editor.',
        primary: true,
      },
    ],
    meta: { resourceType: 'ServiceProviderConfig', location: `${baseUrl}/ServiceProviderConfig` },
  };
}

export const asList = <T>(resources: T[]) => ({
  schemas: [LIST_SCHEMA],
  totalResults: resources.length,
  startIndex: 1,
  itemsPerPage: resources.length,
  Resources: resources,
});
