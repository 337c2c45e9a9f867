import {
  RECIPIENT_ACCESS_REFUSED,
  recipientAnswerRoute,
  recipientFileRoute,
  recipientPageRoute,
  recipientPasscodeRoute,
  recipientUploadRoute,
} from '@dossier/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendStoredFile } from '../../files/routes.js';
import { openAllowedFile } from '../../files/service.js';
import type { AppDeps } from '../../http/deps.js';
import { forbidden, notFound } from '../../http/errors.js';
import { serve } from '../../http/serve.js';
import { isHttps } from '../../http/session.js';
import { sendView } from '../../http/views.js';
import { findRequest } from '../requests/index.js';
import {
  enterPasscode,
  RECIPIENT_COOKIE,
  RECIPIENT_SESSION_IDLE_MINUTES,
  resolveRecipientSession,
} from './access.js';
import { answerThroughAccess, uploadThroughAccess } from './answers.js';
import { openView, passcodeView } from './page.js';
import { findLetterAttachments } from './repository.js';

// The recipient's page (issue 34): every route is under /r/{token}, and the session cookie is set
// for that path only, so it is never sent to any other route of the app, and one link's session
// never opens another link (the session is also bound to its access on the server). The page is
// nobody's staff page: it is answered without the signed-in user of this browser, if any, so no
// menu and nothing of a staff session shows on it.

function hideStaff(request: FastifyRequest, reply: FastifyReply) {
  request.actor = undefined;
  // The token is in the address: it must not travel on as a Referer, nor be indexed.
  reply.header('referrer-policy', 'no-referrer').header('x-robots-tag', 'noindex, nofollow');
}

export function recipientAccessRoutes(app: FastifyInstance, deps: AppDeps): void {
  const cookieOf = (request: FastifyRequest) => request.cookies[RECIPIENT_COOKIE];
  type Working = NonNullable<Awaited<ReturnType<typeof resolveRecipientSession>>>;
  const sessions = new WeakMap<FastifyRequest, Working>();
  // Before the input is read: without this link's session nothing of the call is looked at.
  const recipientOnly = {
    onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
      hideStaff(request, reply);
      const { token } = request.params as { token?: string };
      const working = await resolveRecipientSession(deps.db, token ?? '', cookieOf(request));
      if (!working) throw forbidden(RECIPIENT_ACCESS_REFUSED);
      sessions.set(request, working);
    },
  };
  // The recipient reads the applicant's particulars and the letter: each read is in the access log
  // under its access (issue 36), as a staff member's or an API client's would be.
  const logRead = (
    request: FastifyRequest,
    access: { id: string; request_number: string },
    what: 'request' | 'file',
    fileKey?: string,
  ) =>
    deps.accessLog.record({
      reader: { recipientAccessId: access.id },
      what,
      via: 'page',
      requestNumber: access.request_number,
      fileKey,
      address: request.ip,
    });

  const session = async (request: FastifyRequest, token: string) => {
    const held = sessions.get(request);
    const working = held ?? (await resolveRecipientSession(deps.db, token, cookieOf(request)));
    if (!working) throw forbidden(RECIPIENT_ACCESS_REFUSED);
    return working;
  };

  serve(app, recipientPageRoute, async ({ params }, request, reply) => {
    hideStaff(request, reply);
    const working = await resolveRecipientSession(deps.db, params.token, cookieOf(request));
    if (working) logRead(request, working.access, 'request');
    const view = working
      ? await openView(deps.db, params.token, working.access, working.request)
      : passcodeView(params.token);
    return sendView(request, reply, deps.views, view);
  });

  serve(app, recipientPasscodeRoute, async ({ params, body }, request, reply) => {
    hideStaff(request, reply);
    const { sessionId } = await enterPasscode(deps.db, params.token, body.passcode, request.ip);
    reply.setCookie(RECIPIENT_COOKIE, sessionId, {
      path: `/r/${params.token}`,
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(request, deps.config),
      maxAge: RECIPIENT_SESSION_IDLE_MINUTES * 60 * 4,
    });
    const working = await resolveRecipientSession(deps.db, params.token, sessionId);
    if (!working) throw forbidden(RECIPIENT_ACCESS_REFUSED);
    logRead(request, working.access, 'request');
    return openView(deps.db, params.token, working.access, working.request);
  });

  serve(
    app,
    recipientAnswerRoute,
    async ({ params, body }, request, reply) => {
      hideStaff(request, reply);
      const { access } = await session(request, params.token);
      await deps.db.transaction().execute(async (trx) => {
        const locked = await findRequest(trx, access.request_number, { forUpdate: true });
        if (!locked) throw forbidden(RECIPIENT_ACCESS_REFUSED);
        await answerThroughAccess(trx, deps, access, locked, body, request.ip);
      });
      const working = await resolveRecipientSession(deps.db, params.token, cookieOf(request));
      if (!working) throw forbidden(RECIPIENT_ACCESS_REFUSED);
      return openView(deps.db, params.token, working.access, working.request);
    },
    recipientOnly,
  );

  serve(
    app,
    recipientFileRoute,
    async ({ params }, request, reply) => {
      hideStaff(request, reply);
      const { access, request: row } = await session(request, params.token);
      // Only the letter this link came with and the applicant's authority.
      const letter = await findLetterAttachments(deps.db, row.request_number, access.correspondence_id);
      const allowed = [...letter.map((a) => a.key), row.applicant.authority?.key].filter(Boolean);
      if (!allowed.includes(params.key)) throw notFound('File not found.');
      logRead(request, access, 'file', params.key);
      return sendStoredFile(reply, await openAllowedFile(deps.files, params.key), { inline: true });
    },
    recipientOnly,
  );

  // The bytes of one file: the body as it comes, checked as it streams (files/received.ts).
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    serve(
      scope,
      recipientUploadRoute,
      async ({ params, query }, request, reply) => {
        hideStaff(request, reply);
        const { access, request: row } = await session(request, params.token);
        return uploadThroughAccess(deps, access, row, {
          name: query.name,
          contentType: String(request.headers['content-type'] ?? 'application/octet-stream'),
          body: request.body as NodeJS.ReadableStream as never,
          ip: request.ip,
        });
      },
      recipientOnly,
    );
  });
}
