import type { Permission } from '@dossier/core';
import type { FastifyRequest } from 'fastify';
import { type Actor, hasPermission } from './actor.js';
import { forbidden, HttpError, unauthorized } from './errors.js';
import { changePasswordAddress } from './session.js';

/** The signed-in actor of an API call; 401 when there is none. */
export function requireActor(request: FastifyRequest): Actor {
  if (!request.actor && request.passwordChangeOf) throw passwordMustChange(request, request.passwordChangeOf);
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

/** 401 for a session whose password must be changed first; Location names the change-password page. */
export function passwordMustChange(request: FastifyRequest, username: string): HttpError {
  const [path = '/'] = request.url.split('#');
  return new HttpError(
    401,
    'Your password must be changed before you go on.',
    'passwordMustChange',
    undefined,
    { location: changePasswordAddress(username, path) },
  );
}
