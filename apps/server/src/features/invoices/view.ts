import { CURRENCIES, defaultCurrency, REQUEST_TAGS, type RequestInvoiceView } from '@dossier/core';
import { offeredActionNames } from '../../http/actions.js';
import type { AppDeps } from '../../http/deps.js';
import { forbidden, notFound } from '../../http/errors.js';
import { type Actor, hasPermission } from '../auth/index.js';
import { isRequestStaff, loadVisibleRequest } from '../requests/index.js';
import { invoiceActions } from './actions.js';
import { invoiceItem } from './list.js';
import { findInvoice } from './repository.js';

/**
 * The invoice page (GET /requests/{n}/invoices/{invoiceId}): staff of the request only; the sender
 * side gets 403 (invoices and payments are staff business).
 */
export async function getInvoiceView(
  deps: AppDeps,
  actor: Actor,
  requestNumber: string,
  invoiceId: string,
  action: string | undefined,
): Promise<RequestInvoiceView> {
  const request = await loadVisibleRequest(deps.db, actor, requestNumber);
  if (!isRequestStaff(actor, request)) throw forbidden();
  const row = await findInvoice(deps.db, request.request_number, invoiceId);
  if (!row) throw notFound('No such invoice.');
  const actions = await offeredActionNames(invoiceActions, { deps, actor, request, item: row });
  return {
    $type: 'requestInvoice',
    title: `Invoice of request ${request.request_number}`,
    requestNumber: request.request_number,
    applicantName: request.applicant_name,
    invoice: await invoiceItem(deps.db, row),
    tagDefinitions: [...REQUEST_TAGS.invoice],
    actions,
    action: action === 'select-payee' && actions.includes('pay') ? 'select-payee' : null,
    canViewPayee: hasPermission(actor, 'payee:view'),
    currencies: CURRENCIES.map((c) => ({ code: c.code, name: c.name })),
    defaultCurrency: row.currency ?? defaultCurrency(),
  };
}
