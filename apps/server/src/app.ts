import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { healthRoute, type InvalidUrlView } from '@dossier/core';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import type pg from 'pg';
import { AccessLog } from './audit/accessLog.js';
import { onEventRecorded } from './audit/events.js';
import type { Config } from './config.js';
import type { Db } from './db/database.js';
import { onSessionStateWrite, SESSION_CHANGE_CHANNEL } from './db/sessionWrites.js';
import { accessLogRoutes } from './features/accessLog/routes.js';
import { accountRoutes } from './features/account/routes.js';
import { apiRoutes } from './features/api/index.js';
import { installEnrolmentGuard, useSecondFactorRequirements } from './features/auth/enrolmentGuard.js';
import { useTrustedAddresses } from './features/auth/limits.js';
import { authRoutes } from './features/auth/routes.js';
import { resolveSession, resolveSessionEntry, useScopeIpRanges } from './features/auth/service.js';
import { enableConfigurationCache } from './features/configuration/cache.js';
import {
  getNearestScopeEntry,
  getSecondFactorRequirements,
  getTrustedAddresses,
} from './features/configuration/effective.js';
import { onEntrySaved } from './features/configuration/index.js';
import { configurationRoutes } from './features/configuration/routes.js';
import { correspondenceRoutes } from './features/correspondence/routes.js';
import { pushDashboardChanged } from './features/dashboard/live.js';
import { dashboardRoutes } from './features/dashboard/routes.js';
import { downloadRoutes } from './features/downloads/routes.js';
import { homeRoutes } from './features/home/routes.js';
import { inboxRoutes } from './features/inbox/routes.js';
import { invoiceRoutes } from './features/invoices/routes.js';
import { notificationRoutes } from './features/notifications/routes.js';
import { outboxRoutes } from './features/outbox/routes.js';
import { pageRoutes } from './features/pages/routes.js';
import { passwordResetRoutes } from './features/passwordReset/routes.js';
import { payeeRoutes } from './features/payees/routes.js';
import { pushRequestChanged } from './features/presence/push.js';
import { recheckViewing, trackPresence } from './features/presence/service.js';
import { recipientAccessRoutes } from './features/recipientAccess/routes.js';
import { recipientRoutes } from './features/recipients/routes.js';
import { reportRoutes } from './features/reports/routes.js';
import { requestActionRoutes } from './features/requestPage/actions/routes.js';
import { requestRoutes } from './features/requestPage/routes.js';
import { requestSearchRoutes } from './features/requestSearch/routes.js';
import { issueRequestTemplateRoutes } from './features/requests/letters/routes.js';
import { resultRoutes } from './features/results/routes.js';
import { retentionRoutes } from './features/retention/index.js';
import { resyncClientRoles, scimRoutes } from './features/scim/index.js';
import { selectRecipientRoutes } from './features/selectRecipient/routes.js';
import { skillRoutes } from './features/skills/routes.js';
import { recordBreakGlassSignIn } from './features/sso/breakGlass.js';
import { providerSignOutUrl } from './features/sso/logout.js';
import { ssoRoutes } from './features/sso/routes.js';
import { taskRoutes } from './features/taskActions/routes.js';
import { templatePreviewRoutes } from './features/templatePreview/index.js';
import { userRoutes } from './features/users/routes.js';
import { webhookRoutes } from './features/webhooks/routes.js';
import { wizardRoutes } from './features/wizard/routes.js';
import { storageFromConfig } from './files/fromConfig.js';
import { fileRoutes } from './files/routes.js';
import { loadSecret } from './files/signing.js';
import { installControlCharacterGuard } from './http/controlCharacters.js';
import { installCsrfGuard } from './http/csrf.js';
import type { AppDeps } from './http/deps.js';
import { installErrorHandler } from './http/errors.js';
import { installOperations } from './http/operations.js';
import { installRequestLog } from './http/requestLog.js';
import { installRouteTable } from './http/routeTable.js';
import { installSecurityHeaders } from './http/securityHeaders.js';
import { installAnswerCheck, serve } from './http/serve.js';
import { installSession } from './http/session.js';
import { SessionCache } from './http/sessionCache.js';
import { createShellRenderer } from './http/shell.js';
import { sendView, wantsJson } from './http/views.js';
import { installZodMessages } from './http/zodMessages.js';
import type { JobQueue } from './jobs/queue.js';
import type { LiveHub } from './live/hub.js';
import { liveRoutes } from './live/routes.js';

/** Where the built web app lives, whether running from source or from the bundled server. */
export function defaultWebDistDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return path.resolve(here, '../../web/dist');
}

// Whoever has a request open, and every open dashboard, follows each change of a request live.
onEventRecorded(async (trx, event) => {
  if (event.aggregateType !== 'request') return;
  await pushRequestChanged(trx, event.aggregateId, event.actor);
  await pushDashboardChanged(trx);
});

export async function buildApp(input: {
  config: Config;
  db: Db;
  live: LiveHub;
  jobs?: JobQueue;
  /** The pool behind `db`, for its metrics; absent in tests. */
  pool?: pg.Pool;
}): Promise<FastifyInstance> {
  const { config, db, live, jobs } = input;
  installZodMessages();
  // Sign-in checks a user's IP range, which the configuration holds (see features/auth/service.ts).
  useScopeIpRanges(async (db, scopePath) => (await getNearestScopeEntry(db, scopePath))?.ipRanges);
  useSecondFactorRequirements(getSecondFactorRequirements);
  useTrustedAddresses(getTrustedAddresses);
  // A SCIM client's new group mapping reaches its groups' members when it is saved.
  onEntrySaved('scimClientEntry', (trx, saved) =>
    resyncClientRoles(trx, { ...saved, data: saved.data as Parameters<typeof resyncClientRoles>[1]['data'] }),
  );
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Belt and braces: the request log (http/requestLog.ts) writes no headers, but an error
      // logged with its request must not carry them either.
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    // Fastify's own two lines per request carry the whole URL, query string included.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    // Request bodies never carry prototype keys we would act on; reject them outright.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installRouteTable(app);
  installErrorHandler(app);
  if (config.checkAnswers) installAnswerCheck(app);
  installControlCharacterGuard(app);
  installRequestLog(app);
  await installSecurityHeaders(app, config);
  await installOperations(app, { config, db, live, pool: input.pool });

  const distDir = config.webDistDir ?? defaultWebDistDir();
  const accessLog = new AccessLog(db, config.accessLog, app.log);
  // A graceful stop writes the reads still queued; the database closes after the app.
  app.addHook('onClose', async () => accessLog.close());
  const deps: AppDeps = {
    config,
    db,
    live,
    jobs,
    views: {
      shell: createShellRenderer({ distDir, devServer: config.webDevServer }),
      features: {
        selfRegistration: config.selfRegistration,
        resultFileDownloadTracking: config.downloads.tracking,
        singleSignOn: config.sso && {
          applications: config.sso.applications.map(({ name, icon }) => ({ name, icon })),
          enablePasswordHandling: config.sso.passwordHandling,
        },
      },
    },
    resolveActor: (token) => resolveSession(db, config, token),
    files: {
      db,
      storage: storageFromConfig(config),
      secret: await loadSecret(db, 'files.uploadSigning'),
      maxBytes: config.files.maxBytes,
      accessLog,
    },
    accessLog,
  };

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: config.bodyLimit });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  if (!config.webDevServer) {
    await app.register(fastifyStatic, {
      root: path.join(distDir, 'assets'),
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      // The web build writes .br and .gz beside each asset.
      preCompressed: true,
    });
  }
  // A page path answers HTML or JSON by the X-Requested-With header: caches must keep them apart,
  // and neither may be reused after sign-out.
  app.addHook('onSend', async (request, reply) => {
    if (request.method !== 'GET' || request.url.startsWith('/assets/')) return;
    reply.header('vary', 'X-Requested-With');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  const sessions = new SessionCache((token) => resolveSessionEntry(db, config, token));
  const stopForgetting = onSessionStateWrite(() => sessions.forget());
  app.addHook('onClose', async () => stopForgetting());
  // A change by another instance, or a reconnect after which some may have been missed.
  await live.subscribe(SESSION_CHANGE_CHANNEL, () => sessions.forget());
  installSession(app, sessions);
  installEnrolmentGuard(app);
  installCsrfGuard(app);

  serve(app, healthRoute, async (_input, _request, reply) => {
    try {
      await sql`select 1`.execute(db);
      return { status: 'ok' as const };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  // An instance without the web service (a job worker) answers only /healthz.
  if (config.services.includes('web')) {
    await enableConfigurationCache(db, live);
    ssoRoutes(app, deps);
    const { sso } = deps.config;
    // With passwords off, the break-glass account's password sign-ins are recorded and announced.
    const afterPasswordSignIn =
      sso &&
      ((userId: string, client: { ip: string; userAgent: string | null }) =>
        recordBreakGlassSignIn(deps.db, sso, userId, client));
    authRoutes(
      app,
      deps,
      sso && ((sessionId, signInUrl) => providerSignOutUrl(deps.db, sso, sessionId, signInUrl)),
      afterPasswordSignIn,
    );
    await homeRoutes(app, deps);
    pageRoutes(app, deps);
    passwordResetRoutes(app, deps);
    configurationRoutes(app, deps);
    templatePreviewRoutes(app, deps);
    notificationRoutes(app, deps);
    taskRoutes(app, deps);
    accountRoutes(app, deps, afterPasswordSignIn);
    userRoutes(app, deps);
    recipientRoutes(app, deps);
    recipientAccessRoutes(app, deps);
    payeeRoutes(app, deps);
    outboxRoutes(app, deps);
    retentionRoutes(app, deps);
    fileRoutes(app, deps.files, deps.views);
    webhookRoutes(app, deps);
    requestActionRoutes(app, deps);
    requestSearchRoutes(app, deps);
    selectRecipientRoutes(app, deps);
    issueRequestTemplateRoutes(app, deps);
    correspondenceRoutes(app, deps);
    requestRoutes(app, deps);
    accessLogRoutes(app, deps);
    resultRoutes(app, deps);
    invoiceRoutes(app, deps);
    wizardRoutes(app, deps);
    apiRoutes(app, deps);
    scimRoutes(app, deps);
    dashboardRoutes(app, deps);
    reportRoutes(app, deps);
    downloadRoutes(app, deps);
    skillRoutes(app, deps);
    inboxRoutes(app, deps);
  }
  if (config.services.includes('live')) {
    liveRoutes(app, deps, trackPresence);
    // A change of roles, on any instance, re-checks which requests this instance's sockets show.
    await live.subscribe(SESSION_CHANGE_CHANNEL, () => void recheckViewing(deps, app.log));
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && !wantsJson(request)) {
      return sendView(
        request,
        reply,
        deps.views,
        { $type: 'invalidUrl', title: 'Invalid URL', path } satisfies InvalidUrlView,
        404,
      );
    }
    return reply.status(404).send({ message: `Invalid URL: ${path}`, code: 'invalidUrl' });
  });
  return app;
}
