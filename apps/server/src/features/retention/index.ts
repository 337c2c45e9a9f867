// What the composition root and the job workers use of retention (issue 36).
export { retentionRoutes } from './routes.js';
export { RETENTION_QUEUE, type RetentionJob, runRetentionJob } from './runNow.js';
export { type RetentionContext, runRetention } from './service.js';
