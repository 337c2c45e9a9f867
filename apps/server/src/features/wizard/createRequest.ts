import {
  type CreateRequestBody,
  cleanApplicantFields,
  cleanRequestRecipientFields,
  createRequestBodySchema,
  createRequestNumber,
  type FieldErrors,
  normalizePhone,
  type RequestData,
  type RequestFile,
  type RequestRecipient,
  recipientDifferences,
  wizardContextOf,
  wizardErrors,
} from '@dossier/core';
import { recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx, Trx } from '../../db/database.js';
import type { FilesContext } from '../../files/service.js';
import { badRequest } from '../../http/errors.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { Actor } from '../auth/index.js';
import { getRequestSettings } from '../configuration/index.js';
import { recipientsRepository as recipients } from '../recipients/index.js';
import { attachRequestFile, requestFieldKind } from '../requests/index.js';
import { publishWebhookEvent } from '../webhooks/index.js';
import { insertRequest } from './createRepository.js';
import { deleteDraft } from './repository.js';
import { getSenderData } from './senderData.js';

// POST /requests: the wizard's data becomes a request. Everything happens in one transaction: the
// number, the row, a recipient entered new added to the directory, every uploaded file claimed for
// the request, the history event, the webhook delivery and the draft removed. A failure anywhere
// leaves nothing behind.

// The body's schema is the route contract's (core), shared with the public API's submission.
export { type CreateRequestBody, createRequestBodySchema };

export interface SubmitDeps {
  files: FilesContext;
  /** Absent where no job queue runs (tests, seeding): no webhook deliveries are queued then. */
  jobs?: JobQueue | undefined;
}

const PREFIX = /^[A-Z]{3}$/;
const NUMBER_ATTEMPTS = 20;

export function createRequest(db: Db, deps: SubmitDeps, actor: Actor, body: CreateRequestBody) {
  return db.transaction().execute((trx) => submitRequest(trx, deps, actor, body));
}

const emptyToNull = (value: string | null | undefined) => {
  const t = (value ?? '').trim();
  return t.length === 0 ? null : t;
};

function phoneOf(value: string | null | undefined, country: string | null | undefined): string | null {
  const t = emptyToNull(value);
  if (t === null) return null;
  const n = normalizePhone(t, country ?? 'AU');
  return n.ok ? n.value : t;
}

/** The recipient as stored on the request: numbers normalised, unnamed contacts dropped. */
function cleanRecipient(input: RequestRecipient): RequestRecipient {
  const r = cleanRequestRecipientFields(input);
  return {
    ...r,
    name: r.name.trim(),
    phone: phoneOf(r.phone, r.country) ?? '',
    fax: phoneOf(r.fax, r.country),
    email: emptyToNull(r.email),
    contacts: r.contacts.filter((c) => c.name.trim().length > 0),
  };
}

/**
 * A recipient typed in new is added to the directory (version 1), so it can be found next time;
 * one chosen from the directory must exist. Answers the snapshot with its id and version.
 */
async function resolveRecipient(trx: Trx, actor: Actor, input: RequestRecipient, scope: string) {
  const { directoryDifferences: _fromClient, ...r } = cleanRecipient(input);
  if (r.recipientId) {
    const found = await recipients.findRecipient(trx, r.recipientId);
    if (!found)
      throw badRequest('The recipient does not exist.', { 'recipient.recipientId': 'Unknown recipient.' });
    // Details that differ from the entry are kept, and marked for staff to confirm before issuing.
    const differences = recipientDifferences(r, found.data);
    return {
      ...r,
      version: r.version ?? found.version,
      ...(Object.keys(differences).length > 0 ? { directoryDifferences: differences } : {}),
    };
  }
  const data: recipients.RecipientData = {
    disabled: false,
    name: r.name,
    phone: r.phone,
    fax: r.fax ?? null,
    email: r.email ?? null,
    webSiteUrl: emptyToNull(r.webSiteUrl),
    streetAddress: emptyToNull(r.streetAddress),
    postalAddress: emptyToNull(r.postalAddress),
    country: emptyToNull(r.country),
    notes: emptyToNull(r.notes),
    tags: Object.fromEntries(Object.entries(r.tags).map(([id, value]) => [id, { value }])),
    attachments: [],
    contacts: r.contacts,
  };
  // A recipient typed in with a request belongs to the request's organisation.
  const recipientId = await recipients.insertRecipient(trx, data, actor.id, scope);
  await recordEvent(trx, {
    type: 'recipientCreated',
    aggregateType: 'recipient',
    aggregateId: recipientId,
    actor: actor.id,
    payload: { version: 1, summary: 'Created from the new-request wizard.' },
  });
  return { ...r, recipientId, version: 1 };
}

/** Every uploaded file the request carries, with the field a failure is reported on. */
function filesOf(data: RequestData, preLoadedAuthority: string | undefined) {
  const files: { file: RequestFile; field: string }[] = [];
  const { authority, application } = data.applicant;
  // The organisation's pre-loaded authority stays the configuration's file, shared by its requests.
  if (authority && authority.key !== preLoadedAuthority)
    files.push({ file: authority, field: 'applicant.authority' });
  if (application) files.push({ file: application, field: 'applicant.application' });
  for (const [i, item] of data.content.itemTypes.entries()) {
    for (const [j, file] of item.files.entries())
      files.push({ file, field: `content.itemTypes.${i}.files.${j}` });
    for (const [key, list] of Object.entries(item.fieldSetFiles ?? {}))
      for (const file of list) files.push({ file, field: `content.itemTypes.${i}.fieldSets.${key}` });
  }
  for (const [i, file] of data.content.additionalFiles.entries())
    files.push({ file, field: `content.additionalFiles.${i}` });
  return files;
}

const withoutPending = <T extends { pending?: boolean | undefined }>({ pending: _p, ...rest }: T) =>
  rest as T;

/** Checks the data as the wizard does; answers the item type names by id. */
async function validate(trx: DbOrTrx, actor: Actor, data: RequestData) {
  const senderData = await getSenderData(trx, actor, data.sender.organization);
  const errors: FieldErrors = wizardErrors(data, wizardContextOf(senderData));
  const onBehalfOf = data.sender.submittedOnBehalfOf;
  if (onBehalfOf && !senderData.submitters.some((s) => s.id === onBehalfOf))
    errors['sender.submittedOnBehalfOf'] = 'This user may not submit for the organisation.';
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  const names = new Map(
    senderData.requestItemCategories.flatMap((c) => c.itemTypes.map((t) => [t.id, t.name] as const)),
  );
  return { names, preLoadedAuthority: senderData.applicant.preLoadedApplicantAuthority?.key };
}

/** Submits inside the caller's transaction; answers the new number and where its receipt is. */
export async function submitRequest(
  trx: Trx,
  deps: SubmitDeps,
  actor: Actor,
  body: CreateRequestBody,
  submittedAt = new Date(),
): Promise<{ requestNumber: string; location: string }> {
  const { draftId, ...data } = body;
  const { names, preLoadedAuthority } = await validate(trx, actor, data);
  const scope = data.sender.organization;
  const settings = await getRequestSettings(trx, scope);
  const configured = (settings?.requestNumberPrefix ?? '').trim().toUpperCase();
  const prefix = PREFIX.test(configured) ? configured : 'REQ';

  const recipient = await resolveRecipient(trx, actor, data.recipient, scope);
  const applicant = {
    ...cleanApplicantFields(data.applicant),
    name: data.applicant.name.trim(),
    authority: data.applicant.authority ? withoutPending(data.applicant.authority) : null,
    application: data.applicant.application ? withoutPending(data.applicant.application) : null,
  };
  const content = {
    ...data.content,
    itemTypes: data.content.itemTypes.map((item) => ({
      ...item,
      name: names.get(item.id) ?? item.name ?? item.id,
      files: item.files.map(withoutPending),
    })),
    additionalFiles: data.content.additionalFiles.map(withoutPending),
  };

  let requestNumber = '';
  for (let attempt = 0; attempt < NUMBER_ATTEMPTS && !requestNumber; attempt++) {
    const candidate = createRequestNumber(prefix, submittedAt);
    const inserted = await insertRequest(trx, {
      requestNumber: candidate,
      scope,
      submittedBy: actor.id,
      submittedOnBehalfOf: data.sender.submittedOnBehalfOf ?? null,
      referenceNumber: emptyToNull(data.sender.referenceNumber),
      externalUserReferences: data.sender.externalUserReferences,
      applicant,
      recipient,
      content,
      tags: data.tags,
      submittedAt,
    });
    if (inserted) requestNumber = candidate;
  }
  if (!requestNumber) throw new Error(`No free request number for ${prefix} on ${submittedAt.toISOString()}`);

  const seen = new Set<string>();
  for (const { file, field } of filesOf(data, preLoadedAuthority)) {
    if (seen.has(file.key)) continue;
    seen.add(file.key);
    await attachRequestFile(
      deps.files,
      trx,
      actor,
      requestNumber,
      file.key,
      field,
      null,
      requestFieldKind(field),
    );
  }

  const summary = `Request submitted for ${applicant.name} to ${recipient.name}.`;
  await recordEvent(trx, {
    type: 'request.submitted',
    aggregateType: 'request',
    aggregateId: requestNumber,
    actor: actor.id,
    payload: { summary },
  });
  if (deps.jobs) {
    await publishWebhookEvent(trx, deps.jobs, {
      type: 'requestSubmitted',
      scopePath: scope,
      data: { requestNumber, scope, submittedAt: submittedAt.toISOString(), summary },
    });
  }
  if (draftId) await deleteDraft(trx, draftId, actor.id);
  return { requestNumber, location: `/requests/${requestNumber}/receipt` };
}
