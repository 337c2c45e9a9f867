import { forbidden } from '../../http/errors.js';
import { type Actor, mayAtScope } from '../auth/index.js';
import type { RequestRow } from '../requests/index.js';

// Who reads the access log of a request: administrators and managers of the request's scope. Both
// roles, and no other, hold reports:view, the permission of audit reading; a handler who works the
// request sees its history, not who looked at it.

export function mayViewAccessLog(actor: Actor, request: Pick<RequestRow, 'scope'>): boolean {
  return mayAtScope(actor, 'reports:view', request.scope);
}

export function assertMayViewAccessLog(actor: Actor, request: Pick<RequestRow, 'scope'>): void {
  if (!mayViewAccessLog(actor, request)) throw forbidden('You may not see who opened this request.');
}
