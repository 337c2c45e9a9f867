import { type AdminUsersView, pagingQuerySchema, userFormSchema } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { baseUrlOf } from '../../http/views.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { claimsWaitingFor, decideClaim } from './claimDecisions.js';
import { clearLockout } from './lockout.js';
import { userScopes } from './policy.js';
import { userFormOptions } from './scopes.js';
import { createUser, getUserView, searchUsers, updateUser } from './service.js';
import { unlinkSingleSignOn } from './ssoLink.js';

const searchQuery = pagingQuerySchema.extend({
  name: z.string().max(200).optional(),
  phone: z.string().max(40).optional(),
  email: z.string().max(254).optional(),
  scope: z.string().max(500).optional(),
  externalUserReference: z.string().max(200).optional(),
});
const idParams = z.object({ userId: z.string().max(100) });
const actionQuery = z.object({ action: z.string().max(20).optional() });

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/users', async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, async () => {
      const actor = requirePermission(request, 'user:view');
      const options = await userFormOptions(deps.db, userScopes(actor, 'user:edit'));
      return {
        $type: 'adminUsers',
        title: 'Users',
        canCreateNew: actor.permissions.includes('user:edit') && options.scopes.length > 0,
        pendingRoleClaims: await claimsWaitingFor(deps.db, actor),
      } satisfies AdminUsersView;
    }),
  );

  r.get('/admin/users/search', { schema: { querystring: searchQuery } }, async (request) => {
    const actor = requirePermission(request, 'user:view');
    const { pageOffset, pageSize, ...terms } = request.query;
    return searchUsers(deps.db, actor, terms, { pageOffset, pageSize });
  });

  r.get('/admin/users/edit', { schema: { querystring: actionQuery } }, async (request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getUserView(deps.db, requirePermission(request, 'user:edit'), undefined, request.query.action),
    ),
  );

  r.get(
    '/admin/users/edit/:userId',
    { schema: { params: idParams, querystring: actionQuery } },
    async (request, reply) =>
      sendSignedInPage(request, reply, deps.views, () =>
        getUserView(
          deps.db,
          requirePermission(request, 'user:view'),
          request.params.userId,
          request.query.action,
        ),
      ),
  );

  r.post(
    '/admin/users/edit',
    { onRequest: permissionFirst('user:edit'), schema: { body: userFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'user:edit');
      return createUser(deps.db, actor, request.body, {
        baseUrl: baseUrlOf(request, deps.config.publicUrl),
        ip: request.ip,
      });
    },
  );

  r.post(
    '/admin/users/edit/:userId/role-claims/:claimId/:decision',
    {
      schema: {
        params: idParams.extend({
          claimId: z.string().regex(/^\d{1,18}$/, 'Not a role claim.'),
          decision: z.enum(['approve', 'refuse']),
        }),
      },
    },
    async (request) => {
      const actor = requirePermission(request, 'user:edit');
      const { userId, claimId, decision } = request.params;
      return decideClaim(deps.db, actor, userId, claimId, decision, deps.config.selfRegistrationScope);
    },
  );

  r.post('/admin/users/edit/:userId/unlink-sso', { schema: { params: idParams } }, async (request) =>
    unlinkSingleSignOn(deps.db, requirePermission(request, 'user:edit'), request.params.userId),
  );

  r.post(
    '/admin/users/edit/:userId/clear-lockout',
    { onRequest: permissionFirst('user:edit'), schema: { params: idParams } },
    async (request) => clearLockout(deps.db, requirePermission(request, 'user:edit'), request.params.userId),
  );

  r.post(
    '/admin/users/edit/:userId',
    { onRequest: permissionFirst('user:edit'), schema: { params: idParams, body: userFormSchema } },
    async (request) => {
      const actor = requirePermission(request, 'user:edit');
      return updateUser(deps.db, actor, request.params.userId, request.body, deps);
    },
  );
}
