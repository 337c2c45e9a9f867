import { createHash, randomBytes } from 'node:crypto';
import { effectiveEntries, parseEntryData, type ScimGroupRole } from '@dossier/core';
import type { DbOrTrx } from '../../db/database.js';
import { notFound } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { assertCanEdit, configurationsFor } from '../configuration/index.js';
import { ScimError } from './errors.js';
import * as repo from './repository.js';

// The bearer tokens of SCIM clients. A client is a scimClientEntry of a configuration; its token is
// made on request in the configuration editor, shown once, and only its SHA-256 is kept (32 random
// bytes need no slow hash: nobody can guess them, and the hash is looked up by index). The token
// reaches what lies within the scope path of the configuration holding the entry, and stops working
// when the entry (or its configuration) is disabled or replaced by a new token.

export interface ScimClient {
  /** How the client is named in the audit trail and on the users it made. */
  id: string;
  name: string;
  configurationId: string;
  entryId: string;
  scopePath: string;
  subjectAttribute: 'externalId' | 'userName';
  groupRoles: ScimGroupRole[];
}

const TOKEN_PREFIX = 'dscim_';
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
export const clientIdOf = (configurationId: string, entryId: string) => `scim:${configurationId}/${entryId}`;

const unauthorized = (detail: string) => new ScimError(401, detail);

/** The entry as it is in effect in its own configuration, or undefined. */
async function effectiveClient(db: DbOrTrx, configurationId: string, entryId: string) {
  const configurations = await configurationsFor(db);
  const configuration = configurations.find((c) => c.id === configurationId);
  if (!configuration || configuration.isDisabled) return undefined;
  const entry = effectiveEntries(configurations, configuration.scopePath).find(
    (e) => e.id === entryId && e.type === 'scimClientEntry' && e.configurationId === configurationId,
  );
  const data = entry ? parseEntryData('scimClientEntry', entry.data) : undefined;
  if (!entry || !data) return undefined;
  return { configuration, entry, data };
}

/** The client of a call's `Authorization: Bearer` token; a 401 in SCIM's form otherwise. */
export async function authenticateScim(db: DbOrTrx, authorization: string | undefined): Promise<ScimClient> {
  const match = /^Bearer\s+(\S{1,200})\s*$/i.exec(authorization ?? '');
  if (!match) throw unauthorized('An Authorization: Bearer header with the SCIM token is required.');
  const tokenHash = hashOf(match[1]!); // the pattern's only group always takes part
  const row = await repo.findToken(db, tokenHash);
  const found = row ? await effectiveClient(db, row.configuration_id, row.entry_id) : undefined;
  if (!row || !found) throw unauthorized('The token is unknown, replaced or its client is disabled.');
  await repo.touchToken(db, tokenHash, new Date(Date.now() - 60_000));
  return {
    id: clientIdOf(row.configuration_id, row.entry_id),
    name: found.entry.name,
    configurationId: row.configuration_id,
    entryId: row.entry_id,
    scopePath: found.configuration.scopePath,
    subjectAttribute: found.data.subjectAttribute,
    groupRoles: found.data.groupRoles,
  };
}

async function editableClient(db: DbOrTrx, actor: Actor, configurationId: string, entryId: string) {
  const configurations = await configurationsFor(db);
  const configuration = configurations.find((c) => c.id === configurationId);
  if (!configuration) throw notFound(`There is no configuration ${configurationId}.`);
  assertCanEdit(actor, configuration.scopePath);
  const own = configuration.entries.find((e) => e.id === entryId && e.type === 'scimClientEntry');
  if (!own) throw notFound('Save the SCIM client first: there is no such SCIM client in this configuration.');
  return configuration;
}

/** GET …/scim-token: whether the client has a token, and its last characters (never the token). */
export async function tokenStatus(db: DbOrTrx, actor: Actor, configurationId: string, entryId: string) {
  await editableClient(db, actor, configurationId, entryId);
  const row = await repo.findTokenOfEntry(db, configurationId, entryId);
  return {
    token: null,
    hint: row?.hint ?? null,
    createdAt: row?.created_at.toISOString() ?? null,
    createdBy: row?.created_by ?? null,
    lastUsedAt: row?.last_used_at?.toISOString() ?? null,
  };
}

/** POST …/scim-token: a new token for the client, answered this once; the previous one stops working. */
export async function createToken(db: DbOrTrx, actor: Actor, configurationId: string, entryId: string) {
  await editableClient(db, actor, configurationId, entryId);
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const saved = await repo.saveToken(db, {
    configurationId,
    entryId,
    tokenHash: hashOf(token),
    hint: token.slice(-4),
    createdBy: actor.id,
  });
  return {
    token,
    hint: saved.hint,
    createdAt: saved.created_at.toISOString(),
    createdBy: actor.id,
    lastUsedAt: null,
  };
}
