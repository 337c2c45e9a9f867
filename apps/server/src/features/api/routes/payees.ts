import { pagingQuerySchema, payeeFormSchema } from '@dossier/core';
import { z } from 'zod';
import type { Actor } from '../../auth/index.js';
import { createPayee, getPayeeView, searchPayees, updatePayee } from '../../payees/index.js';
import { defineEndpoint } from '../endpoints.js';
import { payeeAnswer, payeeParams, payeeSearchAnswer } from '../schemas.js';

// Payees through the payees service (the same validation, version check and history as the admin
// pages). Every key with the API scope sees every payee; it changes those of its scope or below.

const searchQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  referenceNumber: z.string().max(100).optional(),
  email: z.string().max(254).optional(),
  bankAccount: z.string().max(100).optional(),
});

type PayeeView = Awaited<ReturnType<typeof getPayeeView>>;

function toAnswer(view: PayeeView) {
  const { version, ...payee } = view.payee;
  return { payeeId: view.payeeId ?? '', version, ...payee };
}

const readPayee = (db: Parameters<typeof getPayeeView>[0], actor: Actor, id: string) =>
  getPayeeView(db, actor, id).then(toAnswer);

export const payeeEndpoints = [
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/payees',
    scope: 'payeeRead',
    tag: 'Payees',
    summary: 'Search payees',
    description: 'Every term is optional; results are paged (pageOffset, pageSize).',
    query: searchQuery,
    response: { description: 'A page of payees.', schema: payeeSearchAnswer },
    async handler({ query }, { deps }) {
      const { pageOffset, pageSize, ...terms } = query;
      return searchPayees(deps.db, terms, { pageOffset, pageSize });
    },
  }),
  defineEndpoint({
    method: 'GET',
    path: '/api/v1/payees/:payeeId',
    scope: 'payeeRead',
    tag: 'Payees',
    summary: 'Read a payee',
    params: payeeParams,
    response: { description: 'The payee; send its version back when updating.', schema: payeeAnswer },
    async handler({ params }, { deps, actor }) {
      return readPayee(deps.db, actor, params.payeeId);
    },
  }),
  defineEndpoint({
    method: 'POST',
    path: '/api/v1/payees',
    scope: 'payeeWrite',
    tag: 'Payees',
    summary: 'Create a payee',
    body: payeeFormSchema,
    response: { status: 201, description: 'The payee created.', schema: payeeAnswer },
    async handler({ body }, { deps, actor }) {
      const view = await createPayee(deps.db, actor, body);
      return toAnswer(view);
    },
  }),
  defineEndpoint({
    method: 'PUT',
    path: '/api/v1/payees/:payeeId',
    scope: 'payeeWrite',
    tag: 'Payees',
    summary: 'Update a payee',
    description: 'Send the version read; 409 when the payee changed meanwhile.',
    params: payeeParams,
    body: payeeFormSchema,
    response: { description: 'The payee as saved.', schema: payeeAnswer },
    async handler({ params, body }, { deps, actor }) {
      return toAnswer(await updatePayee(deps.db, actor, params.payeeId, body, deps.live));
    },
  }),
];
