import type { AccessLog } from '../audit/accessLog.js';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { FilesContext } from '../files/service.js';
import type { JobQueue } from '../jobs/queue.js';
import type { LiveHub } from '../live/hub.js';
import type { Actor } from './actor.js';
import type { ViewContext } from './views.js';

/**
 * What every feature's routes are given by the composition root (app.ts). It lives in the platform
 * so that features depend on it without importing app.ts, which imports them all.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  live: LiveHub;
  /** Absent in tests that need no background jobs. */
  jobs?: JobQueue | undefined;
  views: ViewContext;
  resolveActor(token: string): Promise<Actor | undefined>;
  files: FilesContext;
  /** Where every read of a request's personal data is recorded (audit/accessLog.ts). */
  accessLog: AccessLog;
}
