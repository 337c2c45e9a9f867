import { pagingQuerySchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { forbidden } from '../../http/errors.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { hasPermission, requireActor } from '../auth/index.js';
import { searchPayees } from '../payees/index.js';
import { runItemAction } from '../results/index.js';
import { invoiceActions } from './actions.js';
import { findInvoice } from './repository.js';
import { getInvoiceView } from './view.js';

const params = z.object({ requestNumber: z.string().max(20), invoiceId: z.string().max(40) });
const actionParams = params.extend({ action: z.string().max(50) });
const pageQuery = z.object({ action: z.string().max(50).optional() });
const payeeSearchQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  referenceNumber: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  bankAccount: z.string().max(100).optional(),
});

export function invoiceRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/requests/:requestNumber/invoices/:invoiceId',
    { schema: { params, querystring: pageQuery } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getInvoiceView(
          deps,
          requireActor(request),
          request.params.requestNumber,
          request.params.invoiceId,
          request.query.action,
        ),
      ),
  );

  // Answers the invoice page as it is after the action.
  r.post(
    '/requests/:requestNumber/invoices/:invoiceId/actions/:action',
    { schema: { params: actionParams } },
    async (request) => {
      const actor = requireActor(request);
      const { requestNumber, invoiceId, action } = request.params;
      await runItemAction(deps, actor, {
        requestNumber,
        itemId: invoiceId,
        name: action,
        body: request.body,
        registry: invoiceActions,
        load: findInvoice,
      });
      return getInvoiceView(deps, actor, requestNumber, invoiceId, undefined);
    },
  );

  // The payee search of the pay action (GET /payees/search): handlers pay invoices, so it
  // is open to them as well as to whoever may view the payee database.
  r.get('/payees/search', { schema: { querystring: payeeSearchQuery } }, async (request) => {
    const actor = requireActor(request);
    if (!hasPermission(actor, 'request:handle') && !hasPermission(actor, 'payee:view')) throw forbidden();
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchPayees(deps.db, terms, { pageOffset, pageSize });
  });
}
