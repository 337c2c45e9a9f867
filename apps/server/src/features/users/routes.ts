import {
  type AdminUsersView,
  adminUsersRoute,
  clearLockoutRoute,
  createUserRoute,
  decideRoleClaimRoute,
  newUserRoute,
  resetSecondFactorsRoute,
  searchUsersRoute,
  unlinkSingleSignOnRoute,
  updateUserRoute,
  userRoute,
} from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../http/deps.js';
import { sendSignedInPage } from '../../http/pageView.js';
import { serve } from '../../http/serve.js';
import { baseUrlOf } from '../../http/views.js';
import { permissionFirst, requirePermission } from '../auth/index.js';
import { claimsWaitingFor, decideClaim } from './claimDecisions.js';
import { clearLockout } from './lockout.js';
import { userScopes } from './policy.js';
import { userFormOptions } from './scopes.js';
import { resetUserSecondFactors } from './secondFactors.js';
import { createUser, getUserView, searchUsers, updateUser } from './service.js';
import { unlinkSingleSignOn } from './ssoLink.js';

export function userRoutes(app: FastifyInstance, deps: AppDeps): void {
  serve(app, adminUsersRoute, async (_, request, reply) =>
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

  serve(app, searchUsersRoute, async ({ query }, request) => {
    const actor = requirePermission(request, 'user:view');
    const { pageOffset, pageSize, ...terms } = query;
    return searchUsers(deps.db, actor, terms, { pageOffset, pageSize });
  });

  serve(app, newUserRoute, async ({ query }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getUserView(deps.db, requirePermission(request, 'user:edit'), undefined, query.action),
    ),
  );

  serve(app, userRoute, async ({ params, query }, request, reply) =>
    sendSignedInPage(request, reply, deps.views, () =>
      getUserView(deps.db, requirePermission(request, 'user:view'), params.userId, query.action),
    ),
  );

  serve(
    app,
    createUserRoute,
    async ({ body }, request) =>
      createUser(deps.db, requirePermission(request, 'user:edit'), body, {
        baseUrl: baseUrlOf(request, deps.config.publicUrl),
        ip: request.ip,
      }),
    { onRequest: permissionFirst('user:edit') },
  );

  serve(app, decideRoleClaimRoute, async ({ params }, request) => {
    const actor = requirePermission(request, 'user:edit');
    const { userId, claimId, decision } = params;
    return decideClaim(deps.db, actor, userId, claimId, decision, deps.config.selfRegistrationScope);
  });

  serve(app, unlinkSingleSignOnRoute, async ({ params }, request) =>
    unlinkSingleSignOn(deps.db, requirePermission(request, 'user:edit'), params.userId, deps.live),
  );

  serve(
    app,
    clearLockoutRoute,
    async ({ params }, request) =>
      clearLockout(deps.db, requirePermission(request, 'user:edit'), params.userId),
    { onRequest: permissionFirst('user:edit') },
  );

  serve(
    app,
    resetSecondFactorsRoute,
    async ({ params }, request) =>
      resetUserSecondFactors(deps.db, requirePermission(request, 'user:edit'), params.userId, deps.live),
    { onRequest: permissionFirst('user:edit') },
  );

  serve(
    app,
    updateUserRoute,
    async ({ params, body }, request) =>
      updateUser(deps.db, requirePermission(request, 'user:edit'), params.userId, body, deps),
    { onRequest: permissionFirst('user:edit') },
  );
}
