import type { Actor } from '../../auth/index.js';
import { createPayee, getPayeeView, searchPayees, updatePayee } from '../../payees/index.js';
import { createPayeeRoute, readPayeeRoute, searchPayeesRoute, updatePayeeRoute } from '../contracts.js';
import { defineEndpoint } from '../endpoints.js';

// Payees through the payees service (the same validation, version check and history as the admin
// pages). Every key with the API scope sees every payee; it changes those of its scope or below.

type PayeeView = Awaited<ReturnType<typeof getPayeeView>>;

function toAnswer(view: PayeeView) {
  const { version, ...payee } = view.payee;
  return { payeeId: view.payeeId ?? '', version, ...payee };
}

const readPayee = (db: Parameters<typeof getPayeeView>[0], actor: Actor, id: string) =>
  getPayeeView(db, actor, id).then(toAnswer);

export const payeeEndpoints = [
  defineEndpoint({
    route: searchPayeesRoute,
    scope: 'payeeRead',
    tag: 'Payees',
    summary: 'Search payees',
    description: 'Every term is optional; results are paged (pageOffset, pageSize).',
    answers: 'A page of payees.',
    async handler({ query }, { deps }) {
      const { pageOffset, pageSize, ...terms } = query;
      return searchPayees(deps.db, terms, { pageOffset, pageSize });
    },
  }),
  defineEndpoint({
    route: readPayeeRoute,
    scope: 'payeeRead',
    tag: 'Payees',
    summary: 'Read a payee',
    answers: 'The payee; send its version back when updating.',
    async handler({ params }, { deps, actor }) {
      return readPayee(deps.db, actor, params.payeeId);
    },
  }),
  defineEndpoint({
    route: createPayeeRoute,
    scope: 'payeeWrite',
    tag: 'Payees',
    summary: 'Create a payee',
    status: 201,
    answers: 'The payee created.',
    async handler({ body }, { deps, actor }) {
      const view = await createPayee(deps.db, actor, body);
      return toAnswer(view);
    },
  }),
  defineEndpoint({
    route: updatePayeeRoute,
    scope: 'payeeWrite',
    tag: 'Payees',
    summary: 'Update a payee',
    description: 'Send the version read; 409 when the payee changed meanwhile.',
    answers: 'The payee as saved.',
    async handler({ params, body }, { deps, actor }) {
      return toAnswer(await updatePayee(deps.db, actor, params.payeeId, body, deps.live));
    },
  }),
];
