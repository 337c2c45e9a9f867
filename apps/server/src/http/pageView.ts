import type { AccessDeniedView, InvalidUrlView, View } from '@dossier/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors.js';
import { requireSignedIn, sendView, type ViewContext, wantsJson } from './views.js';

/**
 * Serves a page that needs a signed-in user. A refusal answers the client's JSON request with the
 * error body (the banner shows it); a browser opening the address gets a page instead of raw JSON:
 * Invalid URL for 404 (nothing is told about what exists), Access Denied for 403.
 */
export async function sendSignedInPage(
  request: FastifyRequest,
  reply: FastifyReply,
  views: ViewContext,
  build: () => Promise<View> | View,
) {
  if (!requireSignedIn(request, reply)) return reply;
  try {
    return await sendView(request, reply, views, await build());
  } catch (error) {
    return sendRefusalPage(request, reply, views, error);
  }
}

/**
 * The page a browser gets for an address that was refused (Invalid URL for 404, Access Denied for
 * 403); the client's own JSON requests, and every other failure, get the error itself.
 */
export function sendRefusalPage(
  request: FastifyRequest,
  reply: FastifyReply,
  views: ViewContext,
  error: unknown,
) {
  if (wantsJson(request) || !(error instanceof HttpError)) throw error;
  const path = request.url.split('?')[0];
  if (error.status === 404)
    return sendView(
      request,
      reply,
      views,
      { $type: 'invalidUrl', title: 'Invalid URL', path } satisfies InvalidUrlView,
      404,
    );
  if (error.status === 403) {
    return sendView(
      request,
      reply,
      views,
      {
        $type: 'accessDenied',
        title: 'Access Denied',
        message: error.message,
        path,
      } satisfies AccessDeniedView,
      403,
    );
  }
  throw error;
}
