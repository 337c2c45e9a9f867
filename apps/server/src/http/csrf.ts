import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from './errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
// The sign-in page and the SSO error page post plain HTML forms; they are checked by origin instead.
// So does the smart form preview, which posts the form being edited to a new tab (it changes nothing).
// The second step of a sign-in posts its code the same way.
const PLAIN_FORM_PATHS = new Set(['/signin', '/signin/second-factor', '/signout', '/files/SMARTFORM']);

/**
 * Every state-changing request must carry X-Requested-With. A cross-site form cannot set it, and
 * with the SameSite=Lax cookie that closes cross-site request forgery.
 */
export function installCsrfGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.headers['x-requested-with']) return;
    const [path = ''] = request.url.split('?');
    if (PLAIN_FORM_PATHS.has(path) && isSameOrigin(request)) return;
    // A file upload is authorised by the signature of its URL, never by the session cookie.
    if (request.method === 'PUT' && path.startsWith('/files/upload/')) return;
    // The public API is authorised by a signed bearer token per call, never by the session cookie.
    if (isPublicApiPath(path)) return;
    throw forbidden('Missing X-Requested-With header.');
  });
}

/**
 * /api/v1 and /scim/v2 and below: bearer tokens only, no cookie session and no CSRF header. So is
 * the identity provider's back-channel logout, authorised by the signed logout token it posts.
 */
export function isPublicApiPath(path: string): boolean {
  return (
    path === '/api/v1' ||
    path.startsWith('/api/v1/') ||
    path === '/scim/v2' ||
    path.startsWith('/scim/v2/') ||
    path === '/sso/backchannel-logout'
  );
}

/** A browser always sends Origin (or at least Referer) with a form post; both must name this host. */
export function isSameOrigin(request: FastifyRequest): boolean {
  const source = request.headers.origin ?? request.headers.referer;
  if (!source) return false;
  try {
    // Normalised through URL so that an explicit default port (host:80) still matches.
    return new URL(source).host === new URL(`${request.protocol}://${request.headers.host}`).host;
  } catch {
    return false;
  }
}
