import { metricsRoute, readyRoute } from '@dossier/core';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type pg from 'pg';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import { migrationProvider } from '../db/migrations/index.js';
import type { LiveHub } from '../live/hub.js';
import { forbidden, unauthorized } from './errors.js';
import { serve } from './serve.js';

// What operators and load balancers ask of an instance: /readyz (may it take traffic), overload
// shedding (503 with Retry-After instead of an unbounded queue) and /metrics for Prometheus.
// /healthz (liveness: the process answers and reaches its database) lives in app.ts.

declare module 'fastify' {
  interface FastifyInstance {
    /** Set when the instance stops: /readyz answers 503 so the balancer moves traffic away. */
    draining: boolean;
    /** Set while the instance still starts (demo seeding, mail services): /readyz answers 503. */
    starting: boolean;
  }
}

interface OperationsDeps {
  config: Config;
  db: Db;
  live: LiveHub;
  pool?: pg.Pool | undefined;
}

const RETRY_AFTER_SECONDS = 10;

export async function installOperations(app: FastifyInstance, deps: OperationsDeps): Promise<void> {
  app.decorate('draining', false);
  app.decorate('starting', false);
  const { config, db } = deps;
  if (config.operations.maxEventLoopDelayMs > 0) {
    await app.register(underPressure, {
      maxEventLoopDelay: config.operations.maxEventLoopDelayMs,
      retryAfter: RETRY_AFTER_SECONDS,
      pressureHandler: (_request, reply) => {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS));
        void reply
          .status(503)
          .send({ message: 'The service is busy. Please try again in a few seconds.', code: 'overloaded' });
      },
    });
  }

  serve(app, readyRoute, async (_input, _request, reply) => {
    if (app.draining) return reply.status(503).send({ status: 'draining' });
    if (app.starting) return reply.status(503).send({ status: 'starting' });
    try {
      const expected = Object.keys(await migrationProvider.getMigrations())
        .sort()
        .at(-1);
      const applied = await sql<{ name: string }>`select max(name) as name from kysely_migration`.execute(db);
      if (applied.rows[0]?.name !== expected) return reply.status(503).send({ status: 'migrating' });
      return { status: 'ready' as const };
    } catch {
      return reply.status(503).send({ status: 'unavailable' });
    }
  });

  const token = config.operations.metricsToken;
  if (token) installMetrics(app, deps, token);
}

function installMetrics(app: FastifyInstance, deps: OperationsDeps, token: string): void {
  const register = new Registry();
  collectDefaultMetrics({ register, prefix: 'dossier_' });
  const duration = new Histogram({
    name: 'dossier_http_request_duration_seconds',
    help: 'HTTP request duration by route and status class',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [register],
  });
  const errors = new Counter({
    name: 'dossier_http_server_errors_total',
    help: 'HTTP answers with a 5xx status',
    labelNames: ['route'],
    registers: [register],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const status = `${Math.floor(reply.statusCode / 100)}xx`;
    duration.observe({ method: request.method, route, status }, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc({ route });
  });

  const { pool, live, db } = deps;
  new Gauge({
    name: 'dossier_db_pool_connections',
    help: 'Database pool connections by state',
    labelNames: ['state'],
    registers: [register],
    collect() {
      if (!pool) return;
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'dossier_live_sockets',
    help: 'Live websocket connections held by this instance',
    registers: [register],
    collect() {
      this.set(live.socketCount);
    },
  });
  const outbox = new Gauge({
    name: 'dossier_mail_outbox_waiting',
    help: 'Outgoing mail not yet sent (nor given up)',
    registers: [register],
  });
  const outboxAge = new Gauge({
    name: 'dossier_mail_outbox_oldest_seconds',
    help: 'Age of the oldest outgoing mail waiting to be sent',
    registers: [register],
  });
  const jobs = new Gauge({
    name: 'dossier_jobs_waiting',
    help: 'Background jobs waiting to run',
    registers: [register],
  });

  serve(app, metricsRoute, async (_input, request, reply) => {
    const header = request.headers.authorization;
    if (!header) throw unauthorized('A bearer token is required.');
    if (header !== `Bearer ${token}`) throw forbidden('The token is not valid.');
    // The outbox backlog through its partial index of waiting mail; jobs from pg-boss's own table.
    const waiting = await sql<{ n: string; oldest: Date | null }>`
      select count(*) as n, min(created_at) as oldest from mail_outbox where sent_at is null and failed_at is null`.execute(
      db,
    );
    const row = waiting.rows[0];
    outbox.set(Number(row?.n ?? 0));
    outboxAge.set(row?.oldest ? (Date.now() - row.oldest.getTime()) / 1000 : 0);
    const queued = await sql<{ n: string }>`
      select count(*) as n from pgboss.job where state in ('created', 'retry')`
      .execute(db)
      .catch(() => undefined);
    jobs.set(Number(queued?.rows[0]?.n ?? 0));
    reply.header('content-type', register.contentType);
    return register.metrics();
  });
}
