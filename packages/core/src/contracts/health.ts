import { z } from 'zod';
import { defineRoute } from './route.js';

// What load balancers and orchestrators ask: is this instance alive, is it ready for traffic. The
// failing answers (503 with the same shape and another status) are not checked: only 2xx are.

/** GET /healthz: the instance reaches its database. */
export const healthRoute = defineRoute({
  method: 'GET',
  path: '/healthz',
  answer: z.strictObject({ status: z.literal('ok') }),
});

/** GET /readyz: migrated to this version and not draining. */
export const readyRoute = defineRoute({
  method: 'GET',
  path: '/readyz',
  answer: z.strictObject({ status: z.literal('ready') }),
});

/**
 * GET /metrics: the Prometheus text for a bearer token; not JSON, so its answer is not checked.
 */
export const metricsRoute = defineRoute({ method: 'GET', path: '/metrics', answer: z.unknown() });
