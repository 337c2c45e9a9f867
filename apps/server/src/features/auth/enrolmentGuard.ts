import { grantsNeedSecondFactor } from '@dossier/core';
import type { FastifyInstance } from 'fastify';
import type { DbOrTrx } from '../../db/database.js';
import { wantsJson } from '../../http/views.js';
import * as repo from './repository.js';

// A second factor required by configuration (issue 35): a scope entry names the roles that must
// hold one; a session of a user who must and has none reaches nothing but the enrolment.

/** The second-factor requirements of a scope and the scopes above it (the configuration's, wired in app.ts). */
export type SecondFactorRequirements = (
  db: DbOrTrx,
  scopePath: string,
) => Promise<readonly { scopePath: string; secondFactorRoles: readonly string[] }[]>;

let requirementsAt: SecondFactorRequirements | undefined;

/** The requirements live in the configuration, which builds on this feature: the app wires them in. */
export function useSecondFactorRequirements(lookup: SecondFactorRequirements): void {
  requirementsAt = lookup;
}

/** Whether one of the user's role grants falls under a scope's requirement of a second factor. */
export async function mustEnrolSecondFactor(db: DbOrTrx, userId: string): Promise<boolean> {
  if (!requirementsAt) return false;
  const grants = await repo.findRoles(db, userId);
  for (const grant of grants) {
    if (grantsNeedSecondFactor([grant], await requirementsAt(db, grant.scope))) return true;
  }
  return false;
}

/** What a session that must enrol may still reach: the enrolment, the account page, signing out. */
const ENROLMENT_PATHS = [
  /^GET \/account$/,
  /^(GET|POST) \/account\/second-factors$/,
  /^POST \/account\/second-factors\/[^/]+\/confirm$/,
  /^POST \/account\/passkeys(\/options)?$/,
  /^POST \/signout$/,
  /^GET \/signin$/,
  /^GET \/(assets|fonts)\//,
  /^GET \/(healthz|readyz|favicon\.ico|favicon\.svg)$/,
];

export const ENROLMENT_REQUIRED =
  'Your role requires a second factor: add a code generator or a passkey first.';

/**
 * Server-enforced: a session that must enrol a second factor reaches nothing but the enrolment.
 * A page is redirected to the account page; any other call is refused with 403.
 */
export function installEnrolmentGuard(app: FastifyInstance): void {
  app.addHook('preHandler', async (request, reply) => {
    if (!request.actor?.mustEnrol) return;
    const [path = ''] = request.url.split('?');
    if (ENROLMENT_PATHS.some((allowed) => allowed.test(`${request.method} ${path}`))) return;
    if (request.method === 'GET' && !wantsJson(request)) return reply.redirect('/account', 303);
    return reply.status(403).send({ message: ENROLMENT_REQUIRED, code: 'secondFactorRequired' });
  });
}
