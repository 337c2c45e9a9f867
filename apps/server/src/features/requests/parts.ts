import {
  type Applicant,
  applicantSchema,
  cleanApplicantFields,
  contentSchema,
  type EditablePart,
  fieldErrorsOf,
  isIdentifier,
  type RequestContent,
  type RequestPart,
  type RequestSettings,
  senderSchema,
  stepErrors,
  tagValuesSchema,
} from '@dossier/core';
import { z } from 'zod';
import { diffRecords, recordEvent } from '../../audit/events.js';
import type { DbOrTrx } from '../../db/database.js';
import type { AppDeps } from '../../http/deps.js';
import { conflict, fieldsInvalid, forbidden } from '../../http/errors.js';
import type { Actor } from '../auth/index.js';
import { getRequestSettings } from '../configuration/index.js';
import { loadVisibleRequest } from './access.js';
import { loadContentItemTypes } from './contentItemTypes.js';
import { attachRequestFile, requestFieldKind } from './files.js';
import { canHandleRequest, canSubmitterAct } from './policy.js';
import { type RequestRow, touchRequest, updateRequestColumns } from './repository.js';
import { isSubmitterOf } from './submitterRepository.js';

// The part edits of the request page (POST /requests/{n}/{part}). Who may edit what (server flags):
// handlers of the request's scope edit summary, sender, applicant and content (and choose the
// recipient on the select-recipient page) while the request is not closed; the submitters of the
// sender organisation edit applicant and content until the request is issued. Content is never
// edited after submission when the request settings say disableEditContentAfterSubmit.

type Settings = Pick<RequestSettings, 'disableEditContentAfterSubmit'> | undefined;

/** The parts the actor's roles allow, before the request's state is considered. */
function permittedParts(actor: Actor, row: RequestRow, settings: Settings): Set<RequestPart> {
  const parts = new Set<RequestPart>();
  if (canHandleRequest(actor, row))
    for (const p of ['summary', 'sender', 'applicant', 'recipient', 'content'] as const) parts.add(p);
  else if (canSubmitterAct(actor, row)) {
    parts.add('applicant');
    parts.add('content');
  }
  if (settings?.disableEditContentAfterSubmit) parts.delete('content');
  return parts;
}

/** Why the request's state refuses the actor's edit now, if it does. */
function stateRefusal(actor: Actor, row: RequestRow): string | undefined {
  if (row.status === 'closed') return 'The request is closed.';
  if (!canHandleRequest(actor, row) && row.issued_at !== null)
    return 'The request has been issued and can no longer be changed by the sender.';
  return undefined;
}

export function editablePartsOf(actor: Actor, row: RequestRow, settings: Settings): RequestPart[] {
  if (stateRefusal(actor, row)) return [];
  return [...permittedParts(actor, row, settings)];
}

const version = z.number().int().min(1);
const bodies = {
  summary: z.object({ version, data: z.object({ tags: tagValuesSchema }) }),
  sender: z.object({ version, data: senderSchema }),
  applicant: z.object({ version, data: applicantSchema }),
  content: z.object({ version, data: contentSchema }),
} as const;

const json = (value: unknown) => JSON.stringify(value);

interface PartChange {
  /** The columns to set. */
  set: Record<string, unknown>;
  before: object;
  after: object;
  /** File keys new to the request (field name → key). */
  newFiles: [string, string][];
}

function fileKeysOf(value: unknown): Set<string> {
  const keys = new Set<string>();
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      const { key } = v as { key?: unknown };
      if (
        typeof key === 'string' &&
        'key' in v &&
        Object.keys(v).every((k) => ['key', 'name', 'pending'].includes(k))
      )
        keys.add(key);
      else Object.values(v).forEach(visit);
    }
  };
  visit(value);
  return keys;
}

function newFilesOf(before: unknown, after: unknown, field: string): [string, string][] {
  const old = fileKeysOf(before);
  return [...fileKeysOf(after)].filter((k) => !old.has(k)).map((k) => [field, k]);
}

async function changeOf(
  db: DbOrTrx,
  _actor: Actor,
  row: RequestRow,
  part: EditablePart,
  data: unknown,
): Promise<PartChange> {
  switch (part) {
    case 'summary': {
      const { tags } = data as { tags: Record<string, string> };
      const bad = Object.keys(tags).find((id) => !isIdentifier(id));
      if (bad) throw fieldsInvalid({ [`tags.${bad}`]: 'Not a valid tag id.' });
      return { set: { tags: json(tags) }, before: { tags: row.tags ?? {} }, after: { tags }, newFiles: [] };
    }
    case 'sender': {
      const sender = data as z.infer<typeof senderSchema>;
      if (sender.organization !== row.scope)
        throw fieldsInvalid({
          organization: 'The sender organisation of a submitted request can not be changed.',
        });
      const onBehalf = sender.submittedOnBehalfOf || null;
      if (
        onBehalf &&
        onBehalf !== row.submitted_on_behalf_of &&
        !(await isSubmitterOf(db, onBehalf, row.scope))
      )
        throw fieldsInvalid({
          submittedOnBehalfOf: 'Choose a submitter of the sender organisation.',
        });
      const before = {
        submittedOnBehalfOf: row.submitted_on_behalf_of,
        referenceNumber: row.reference_number,
        externalUserReferences: row.external_user_references,
      };
      const after = {
        submittedOnBehalfOf: onBehalf,
        referenceNumber: sender.referenceNumber || null,
        externalUserReferences: [
          ...new Set(sender.externalUserReferences.map((r) => r.trim()).filter(Boolean)),
        ],
      };
      return {
        set: {
          submitted_on_behalf_of: after.submittedOnBehalfOf,
          reference_number: after.referenceNumber,
          external_user_references: after.externalUserReferences,
        },
        before,
        after,
        newFiles: [],
      };
    }
    case 'applicant': {
      // Stored by the shared input rules: the country's ISO code, the address cleaned.
      const applicant = cleanApplicantFields(data as Applicant);
      const settings = await getRequestSettings(db, row.scope);
      const errors = stepErrors(
        'applicant',
        { applicant },
        { reference1IsRequired: settings?.applicantReference1Required ?? false },
      );
      if (Object.keys(errors).length > 0)
        throw fieldsInvalid(
          Object.fromEntries(Object.entries(errors).map(([k, v]) => [k.replace(/^applicant\./, ''), v])),
        );
      const before = row.applicant;
      return {
        set: {
          applicant: json(applicant),
          applicant_name: applicant.name,
          applicant_date_of_birth: applicant.dateOfBirth ?? null,
        },
        before,
        after: applicant,
        newFiles: [
          ...newFilesOf(before.authority, applicant.authority, 'authority'),
          ...newFilesOf(before.application, applicant.application, 'application'),
        ],
      };
    }
    case 'content': {
      const content = data as RequestContent;
      const before = row.content as RequestContent;
      await checkContentEdit(db, row.scope, before, content);
      return {
        set: { content: json(content) },
        before,
        after: content,
        newFiles: newFilesOf(before, content, 'content'),
      };
    }
  }
}

/**
 * A content edit changes the answers, never which item types are asked (the workflow and the
 * letter were made for them); the answers meet the wizard's rules for the item types as configured
 * now. An item type no longer configured keeps its answers as they were submitted.
 */
async function checkContentEdit(db: DbOrTrx, scope: string, before: RequestContent, after: RequestContent) {
  const ids = (c: RequestContent) => (c.itemTypes ?? []).map((i) => i.id).join('\n');
  if (ids(before) !== ids(after))
    throw fieldsInvalid({ itemTypes: 'The item types of a submitted request can not be changed.' });
  const types = await loadContentItemTypes(db, scope, after);
  const ctx = { reference1IsRequired: false, itemTypes: Object.fromEntries(types.map((t) => [t.id, t])) };
  const errors = Object.entries(stepErrors('content', { content: after }, ctx))
    .filter(([field]) => field !== 'content.itemTypes' && !field.endsWith('.id'))
    .map(([field, message]) => [field.replace(/^content\./, ''), message]);
  if (errors.length > 0) throw fieldsInvalid(Object.fromEntries(errors));
}

const PART_NAMES: Record<EditablePart, string> = {
  summary: 'Summary',
  sender: 'Sender',
  applicant: 'Applicant',
  content: 'Content',
};

/**
 * Saves one part: 403 when the actor may not edit it, 409 when the request's state refuses it or the
 * edit was made on an older version, 400 with field errors for bad input. Nothing changes otherwise.
 */
export async function saveRequestPart(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  part: EditablePart,
  body: unknown,
): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const row = await loadVisibleRequest(trx, actor, requestNumber, { forUpdate: true });
    const settings = await getRequestSettings(trx, row.scope);
    if (!permittedParts(actor, row, settings).has(part)) throw forbidden();
    const refusal = stateRefusal(actor, row);
    if (refusal) throw conflict(refusal);
    const parsed = bodies[part].safeParse(body ?? {});
    if (!parsed.success) throw fieldsInvalid(fieldErrorsOf(parsed.error.issues, { within: 'data' }));
    if (parsed.data.version !== row.version)
      throw conflict('The request was changed by someone else since you opened it. Reload it and try again.');
    const change = await changeOf(trx, actor, row, part, parsed.data.data);
    for (const [field, key] of change.newFiles)
      await attachRequestFile(
        deps.files,
        trx,
        actor,
        requestNumber,
        key,
        field,
        null,
        requestFieldKind(field),
      );
    const changes = diffRecords(change.before, change.after);
    if (Object.keys(changes).length === 0) return;
    await updateRequestColumns(trx, requestNumber, change.set);
    await recordEvent(trx, {
      type: 'request.partEdited',
      aggregateType: 'request',
      aggregateId: requestNumber,
      actor: actor.id,
      payload: {
        summary: `${PART_NAMES[part]} edited: ${Object.keys(changes).join(', ')}.`,
        part,
        changes,
      },
    });
    await touchRequest(trx, requestNumber, actor.id);
  });
}
