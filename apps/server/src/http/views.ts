import type { Features, View } from '@dossier/core';
import { DEFAULT_LOCALE } from '@dossier/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toUserState } from './actor.js';
import { unauthorized } from './errors.js';
import { passwordMustChange } from './guards.js';
import { changePasswordAddress } from './session.js';
import type { ShellRenderer } from './shell.js';

// The view protocol: a page path answers JSON (the view) to the client's own requests, which carry
// X-Requested-With, and the HTML shell with the whole initial state embedded to everything else.

export interface ViewContext {
  shell: ShellRenderer;
  features: Features;
}

export function wantsJson(request: FastifyRequest): boolean {
  return request.headers['x-requested-with'] !== undefined;
}

export async function sendView(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: ViewContext,
  view: View,
  status = 200,
) {
  reply.status(status).header('cache-control', 'no-store');
  const state = () => ({
    user: request.actor ? toUserState(request.actor) : null,
    view,
    locale: request.actor?.locale ?? DEFAULT_LOCALE,
    features: ctx.features,
  });
  if (wantsJson(request)) return reply.send(request.headers['x-initial-state'] ? state() : view);
  return reply.type('text/html; charset=utf-8').send(await ctx.shell.render(state()));
}

/** Pages that need a signed-in user: the browser goes to the sign-in page, the client gets 401. */
export function requireSignedIn(request: FastifyRequest, reply: FastifyReply): boolean {
  if (request.actor) return true;
  if (request.passwordChangeOf) {
    if (wantsJson(request)) throw passwordMustChange(request, request.passwordChangeOf);
    void reply.redirect(changePasswordAddress(request.passwordChangeOf, request.url), 303);
    return false;
  }
  if (wantsJson(request)) throw unauthorized();
  const returnUrl = encodeURIComponent(request.url);
  void reply.redirect(`/signin?return-url=${returnUrl}`, 303);
  return false;
}

// Any origin will do as the base: what matters is whether the value leaves it.
const LOCAL = 'http://return-url.invalid';

/**
 * Only a path on this origin may be a return target. The value is read as a browser reads it
 * (tabs and newlines dropped, backslashes as slashes), so `/\t/evil.example` is refused as the
 * browser would have gone to evil.example; anything else becomes '/'.
 */
export function safeReturnUrl(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/')) return '/';
  let url: URL;
  try {
    url = new URL(value, LOCAL);
  } catch {
    return '/';
  }
  if (url.origin !== LOCAL) return '/';
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The address users reach the app at: PUBLIC_URL, else what this request came to. */
export function baseUrlOf(request: FastifyRequest, publicUrl: string | undefined): string {
  return (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/$/, '');
}
