import {
  type AdminPayeeView,
  CURRENCIES,
  cleanWebAddress,
  defaultCurrency,
  type HistoryEntry,
  type PagingQuery,
  type PayeeForm,
  type PayeeSummary,
  type SearchAnswer,
  validatePayee,
} from '@dossier/core';
import { diffRecords, listHistory, recordEvent } from '../../audit/events.js';
import type { Db, DbOrTrx } from '../../db/database.js';
import { toSearchAnswer } from '../../db/search.js';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.js';
import type { LiveHub } from '../../live/hub.js';
import type { Actor } from '../auth/index.js';
import { hasPermission } from '../auth/index.js';
import { listScopeEntries } from '../configuration/index.js';
import { mayEditPayee, newPayeeScope, notYourPayee } from './policy.js';
import * as repo from './repository.js';
import { announcePayeeChange, sensitiveFields } from './sensitiveChange.js';

export function payeeView(
  actor: Actor,
  input: {
    id?: string;
    version?: number;
    scope?: string;
    data?: repo.PayeeData;
    history?: HistoryEntry[];
    scopes?: AdminPayeeView['scopes'];
  },
): AdminPayeeView {
  const data = input.data;
  const scope = input.scope ?? newPayeeScope(actor);
  const owner = mayEditPayee(actor, scope);
  return {
    $type: 'adminPayee',
    title: data ? `Payee: ${data.name}` : 'New Payee',
    payeeId: input.id ?? null,
    scope,
    scopes: input.scopes ?? [],
    canEdit: hasPermission(actor, 'payee:edit') && owner,
    ...(hasPermission(actor, 'payee:edit') && !owner ? { readOnlyReason: notYourPayee(scope) } : {}),
    currencies: CURRENCIES.map((c) => ({ code: c.code, name: c.name })),
    payee: {
      disabled: data?.disabled ?? false,
      name: data?.name ?? '',
      referenceNumber: data?.referenceNumber ?? '',
      email: data?.email ?? '',
      bankAccount: data?.bankAccount ?? '',
      currency: data?.currency ?? defaultCurrency(),
      foreignReference: data?.foreignReference ?? null,
      version: input.version ?? 0,
    },
    history: input.history ?? [],
  };
}

export async function getPayeeView(
  db: DbOrTrx,
  actor: Actor,
  id: string | undefined,
): Promise<AdminPayeeView> {
  if (id === undefined) return payeeView(actor, { scopes: await ownerScopeChoices(db, actor) });
  const row = await repo.findPayee(db, id);
  if (!row) throw notFound('No such payee.');
  return payeeView(actor, {
    id,
    version: row.version,
    scope: row.scope,
    data: row.data,
    history: await listHistory(db, 'payee', id),
  });
}

const emptyToNull = (v: string | null | undefined) => {
  const t = (v ?? '').trim();
  return t.length === 0 ? null : t;
};

function toData(form: PayeeForm): repo.PayeeData {
  const errors = validatePayee(form);
  if (Object.keys(errors).length > 0) throw badRequest('Please correct the marked fields.', errors);
  // Stored as the shared rule leaves it: credentials stripped.
  const url = emptyToNull(cleanWebAddress(form.foreignReference?.url));
  return {
    disabled: form.disabled,
    name: form.name.trim(),
    referenceNumber: emptyToNull(form.referenceNumber),
    email: emptyToNull(form.email),
    bankAccount: emptyToNull(form.bankAccount),
    currency: form.currency,
    foreignReference: url ? { label: emptyToNull(form.foreignReference?.label) ?? url, url } : null,
  };
}

/** The scopes a new payee of the actor may belong to: its own first, then every scope entry it edits at. */
async function ownerScopeChoices(db: DbOrTrx, actor: Actor): Promise<AdminPayeeView['scopes']> {
  const entries = await listScopeEntries(db);
  const nameOf = (path: string) => entries.find((e) => e.scopePath === path)?.name ?? path;
  const paths = [newPayeeScope(actor), ...entries.map((e) => e.scopePath)].filter(
    (p, i, all) => all.indexOf(p) === i && mayEditPayee(actor, p),
  );
  return paths.map((scopePath) => ({ scopePath, name: nameOf(scopePath) }));
}

export const STALE_PAYEE =
  'This payee was changed by someone else since you opened it. Nothing was saved: reload the page to see the changes, then make yours again.';

/** A payee's bank details decide where money goes: its history says how the editor signed in (issue 35). */
const authenticatedBy = (actor: Actor) => (actor.authMethod ? { authenticatedBy: actor.authMethod } : {});

export async function createPayee(db: Db, actor: Actor, form: PayeeForm): Promise<AdminPayeeView> {
  const data = toData(form);
  const scope = emptyToNull(form.scope) ?? newPayeeScope(actor);
  if (!(await ownerScopeChoices(db, actor)).some((s) => s.scopePath === scope))
    throw badRequest('Please correct the marked fields.', {
      scope: 'Choose one of the scopes you may add payees to.',
    });
  return db.transaction().execute(async (trx) => {
    const id = await repo.insertPayee(trx, data, actor.id, scope);
    const changes = diffRecords({}, data);
    await recordEvent(trx, {
      type: 'payeeCreated',
      aggregateType: 'payee',
      aggregateId: id,
      actor: actor.id,
      payload: { changes, ...authenticatedBy(actor) },
    });
    return getPayeeView(trx, actor, id);
  });
}

/**
 * Whose entry it is comes before what the form holds: another scope's editor learns nothing more.
 * The route runs it before the body is even validated.
 */
export async function assertMayEditPayee(db: DbOrTrx, actor: Actor, id: string): Promise<void> {
  const owned = await repo.findPayee(db, id);
  if (!owned) throw notFound('No such payee.');
  if (!mayEditPayee(actor, owned.scope)) throw forbidden(notYourPayee(owned.scope));
}

export async function updatePayee(
  db: Db,
  actor: Actor,
  id: string,
  form: PayeeForm,
  live?: LiveHub,
): Promise<AdminPayeeView> {
  await assertMayEditPayee(db, actor, id);
  const data = toData(form);
  if (form.version === undefined)
    throw badRequest('The version being edited is missing.', { version: 'Required.' });
  const version = form.version;
  return db.transaction().execute(async (trx) => {
    const current = await repo.findPayee(trx, id, true);
    if (!current) throw notFound('No such payee.');
    if (!mayEditPayee(actor, current.scope)) throw forbidden(notYourPayee(current.scope));
    if (current.version !== version) throw conflict(STALE_PAYEE);
    const changes = diffRecords(current.data, data);
    if (Object.keys(changes).length === 0) return getPayeeView(trx, actor, id);
    if ((await repo.updatePayee(trx, id, version, data, actor.id)) === undefined) throw conflict(STALE_PAYEE);
    await recordEvent(trx, {
      type: 'payeeUpdated',
      aggregateType: 'payee',
      aggregateId: id,
      actor: actor.id,
      payload: { changes, ...authenticatedBy(actor) },
    });
    await announcePayeeChange(trx, live, actor, { id, name: data.name }, sensitiveFields(changes));
    return getPayeeView(trx, actor, id);
  });
}

export async function searchPayees(
  db: DbOrTrx,
  terms: repo.PayeeSearch,
  paging: PagingQuery,
): Promise<SearchAnswer<PayeeSummary>> {
  const { rows, total } = await repo.searchPayees(db, terms, paging.pageOffset, paging.pageSize);
  const changed = await repo.recentSensitiveChanges(
    db,
    rows.map((r) => r.id),
  );
  return toSearchAnswer(
    rows.map((r) => ({
      id: r.id,
      item: {
        ...(changed.has(r.id) ? { paymentDetailsChangedAt: changed.get(r.id)?.toISOString() } : {}),
        name: r.name,
        referenceNumber: r.reference_number,
        email: r.email,
        bankAccount: r.bank_account,
        currency: r.currency,
        disabled: r.disabled,
      },
    })),
    total,
    paging,
  );
}
