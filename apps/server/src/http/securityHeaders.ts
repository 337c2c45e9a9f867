import type { IncomingMessage } from 'node:http';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

// The security headers of every answer (@fastify/helmet), set in onRequest so pages, JSON, errors,
// 404s and downloads all carry them. docs/ARCHITECTURE.md ("Security headers and input hygiene") explains the policy.

/** A Host header a browser could have sent: a name or an IP literal with an optional port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i;

/**
 * The live socket (/__ws) is opened on the host of the page. `'self'` covers same-origin websockets
 * in current browsers, but older ones need ws:/wss: named: the host of PUBLIC_URL when it is set
 * (behind a proxy the Host header may name the inside), else the host the browser asked for. A
 * Host header that is not a plain host name adds nothing.
 */
export function socketSources(host: string | undefined, httpsOnly: boolean): string {
  if (!host || !HOST.test(host)) return '';
  return httpsOnly ? `wss://${host}` : `ws://${host} wss://${host}`;
}

export async function installSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl?.startsWith('https:') ?? false;
  // The Vite dev server injects an inline script (the React refresh preamble); only there.
  const dev = config.webDevServer !== undefined;
  const publicHost = config.publicUrl && !dev ? new URL(config.publicUrl).host : undefined;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        'script-src-attr': ["'none'"],
        // Mantine writes <style> elements and style attributes at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': [
          "'self'",
          (req: IncomingMessage) => socketSources(publicHost ?? req.headers.host, https && !dev),
        ],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    // The sign-in overlay opens a window for single sign-on and hears back from it, so pages keep
    // the windows they open; the pages of that window's way (below) keep their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xContentTypeOptions: true,
  });
  // The SSO window passes /signin, the identity provider and /sso/… before /sso/reauthenticated
  // posts the user back to the page that opened it; any opener policy on our side of that way
  // would cut the window from its opener.
  app.addHook('onRequest', async (request, reply) => {
    if (SSO_WINDOW_PATH.test(request.url)) reply.header('cross-origin-opener-policy', 'unsafe-none');
  });
}

const SSO_WINDOW_PATH = /^\/(?:signin(?:[/?#]|$)|sso\/)/;

/**
 * The policy of a stored or exported file: whatever it holds, a browser that shows it runs no
 * script and treats it as a foreign origin, so a file can never act as a page of ours.
 */
export const FILE_CONTENT_SECURITY_POLICY =
  "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";
