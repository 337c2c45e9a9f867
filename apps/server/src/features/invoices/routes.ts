import { invoiceActionRoute, invoicePageRoute, payeeSearchRoute } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { forbidden } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { hasPermission, requireActor } from '../auth/index.js';
import { searchPayees } from '../payees/index.js';
import { runItemAction } from '../results/index.js';
import { invoiceActions } from './actions.js';
import { findInvoice } from './repository.js';
import { getInvoiceView } from './view.js';

export function invoiceRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, invoicePageRoute, async ({ params, query }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getInvoiceView(deps, requireActor(request), params.requestNumber, params.invoiceId, query.action),
    ),
  );

  // Answers the invoice page as it is after the action.
  serve(app, invoiceActionRoute, async ({ params, body }, request) => {
    const actor = requireActor(request);
    const { requestNumber, invoiceId, action } = params;
    await runItemAction(deps, actor, {
      requestNumber,
      itemId: invoiceId,
      name: action,
      body,
      registry: invoiceActions,
      load: findInvoice,
    });
    return getInvoiceView(deps, actor, requestNumber, invoiceId, undefined);
  });

  // The payee search of the pay action (GET /payees/search): handlers pay invoices, so it
  // is open to them as well as to whoever may view the payee database.
  serve(app, payeeSearchRoute, async ({ query }, request) => {
    const actor = requireActor(request);
    if (!hasPermission(actor, 'request:handle') && !hasPermission(actor, 'payee:view')) throw forbidden();
    const { pageOffset, pageSize, ...terms } = query;
    return searchPayees(deps.db, terms, { pageOffset, pageSize });
  });
}
