import type { Permission } from '@dossier/core';
import type { FastifyRequest } from 'fastify';
import { type Actor, hasPermission } from './actor.js';
import { forbidden, unauthorized } from './errors.js';

/** The signed-in actor of an API call; 401 when there is none. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** The actor, when it holds the permission in at least one of its scopes; 403 otherwise. */
export function requirePermission(request: FastifyRequest, permission: Permission): Actor {
  const actor = requireActor(request);
  if (!hasPermission(actor, permission)) throw forbidden();
  return actor;
}

/**
 * A route hook that refuses, before the body is even validated, a caller without a session (401) or
 * without the permission in any scope (403). The handler still checks the permission in the scope
 * of what it changes.
 */
export function permissionFirst(permission: Permission) {
  return async (request: FastifyRequest): Promise<void> => {
    requirePermission(request, permission);
  };
}

/** A route hook that refuses a caller without a session before its body is even validated. */
export async function signedInOnly(request: FastifyRequest): Promise<void> {
  requireActor(request);
}
