import { createUploadRoute, receiveUploadRoute, storedFileRoute } from '@dossier/core';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { HttpError } from '../http/errors.js';
import { requireActor, signedInOnly } from '../http/guards.js';
import { sendRefusalPage } from '../http/pageView.js';
import { FILE_CONTENT_SECURITY_POLICY } from '../http/securityHeaders.js';
import { serve } from '../http/serve.js';
import { requireSignedIn, type ViewContext } from '../http/views.js';
import { downloadName, isInlineSafe } from './content.js';
import { createUpload, type FileRow, type FilesContext, openFile, receiveUpload } from './service.js';

/** Content-Disposition with both a plain fallback and the UTF-8 name (RFC 6266). */
function disposition(kind: 'inline' | 'attachment', name: string): string {
  const plain = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Answers a stored file with the headers every file gets: shown inline only when its type is safe
 * to show (and `inline` asks for it), never sniffed, never run as a page of ours. Used by every
 * route that hands out a stored file once it decided the caller may read it.
 */
export function sendStoredFile(
  reply: FastifyReply,
  opened: { file: FileRow; stream: NodeJS.ReadableStream },
  options: { inline: boolean; fileName?: string | undefined },
) {
  const { file, stream } = opened;
  const inline = isInlineSafe(file.content_type) && options.inline;
  reply
    .header('content-type', file.content_type)
    .header('content-length', String(file.size))
    .header(
      'content-disposition',
      disposition(inline ? 'inline' : 'attachment', downloadName(file.name, options.fileName)),
    )
    .header('x-content-type-options', 'nosniff')
    // Even a file that slipped through is never run as a page of ours.
    .header('content-security-policy', FILE_CONTENT_SECURITY_POLICY)
    .header('cache-control', file.public_read ? 'public, max-age=3600' : 'private, no-store')
    // A public file (a logo) may be shown by other sites, such as a mail read in a browser;
    // every other file stays same-origin (helmet's default).
    .header('cross-origin-resource-policy', file.public_read ? 'cross-origin' : 'same-origin');
  return reply.send(stream);
}

export function fileRoutes(app: FastifyInstance, files: FilesContext, views: ViewContext): void {
  serve(
    app,
    createUploadRoute,
    async ({ body }, request) => createUpload(files, requireActor(request), body),
    {
      onRequest: signedInOnly,
    },
  );

  serve(app, storedFileRoute, async ({ params, query }, request, reply) => {
    let opened: Awaited<ReturnType<typeof openFile>>;
    try {
      opened = await openFile(files, request.actor, params.key, { address: request.ip });
    } catch (error) {
      // A file link opened in the browser is answered like a page: without a session it goes
      // to the sign-in page and back, a refusal shows Access Denied or Invalid URL.
      if (error instanceof HttpError && error.status === 401 && !requireSignedIn(request, reply))
        return reply;
      return sendRefusalPage(request, reply, views, error);
    }
    const inline = query.attachment === undefined;
    return sendStoredFile(reply, opened, { inline, fileName: query.fileName });
  });

  // The upload target: authorised by its signature, not by a session, and reads the raw bytes.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    serve(scope, receiveUploadRoute, async ({ params, query }, request) =>
      receiveUpload(files, params.key, query, request.body as NodeJS.ReadableStream as never),
    );
  });
}
