import type { Row } from './load.js';
import type { Settings } from './settings.js';

/** One request, fired again and again by autocannon (and once first, as a probe). */
export interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** A line printed under the table, e.g. what exactly was requested. */
  note?: string;
}

export interface Skip {
  skip: string;
}

/** What cases get from the runner. Servers start lazily, on the first case that asks for them. */
export interface BenchContext {
  settings: Settings;
  /** Base URL of the bare Fastify baseline (serves GET /bare). */
  bareUrl(): Promise<string>;
  /** Base URL of the in-process Dossier instance. */
  dossierUrl(): Promise<string>;
  /** A `Cookie` header value for a session of the demo user `handler` (signed in once, shared). */
  sessionCookie(): Promise<string>;
  /** The same for another demo user (e.g. `submitter`, whose visibility filter is at work). */
  sessionCookieOf(user: string): Promise<string>;
  /** The PostgreSQL the Dossier instance uses (to start a second instance on it as a process). */
  databaseUrl(): Promise<string>;
}

export interface BenchCase {
  /** Short, unique; used in the table and by BENCH_ONLY. */
  name: string;
  description: string;
  /** Connections and duration for this case; the global settings when omitted. */
  load?(settings: Settings): { connections: number; duration: number };
  /** Runs before any server starts (e.g. to build something). Answer a string to skip the case. */
  prepare?(settings: Settings): Promise<string | undefined> | string | undefined;
  target(ctx: BenchContext): Promise<Target | Skip>;
  /**
   * A measurement autocannon cannot make (several requests per sample, time to first byte, server
   * memory): called with the target instead of autocannon, answers the row itself.
   */
  run?(ctx: BenchContext, target: Target, load: { connections: number; duration: number }): Promise<Row>;
}

export const DEMO_USER = 'handler';
export const DEMO_PASSWORD = 'Bench-Pass-2026!';
export const ADMIN_PASSWORD = 'Bench-Admin-2026!';
