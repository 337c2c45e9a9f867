// Failures that mean "the database cannot be reached right now" rather than "this request is wrong":
// a restart or outage of PostgreSQL, a connection it cut, or a pool that could not get a connection
// in time. The app answers those with 503 and Retry-After, and recovers by itself when the database
// is back (the pool drops dead connections and opens new ones).

/** SQLSTATEs of a server shutting down, starting up or a broken connection (classes 08 and 57P). */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // A deadlock or serialization failure: PostgreSQL rolled the whole transaction back, so trying
  // again is safe and will most likely succeed. Closing a request updates its tasks' kept request
  // state (migration 20261128_8001) while a workflow reaction may hold one of those tasks and wait
  // for the request: rare, transient, and not the caller's fault.
  '40P01',
  '40001',
]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Connection closed/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  return UNAVAILABLE_MESSAGES.some((m) => m.test(error.message));
}

/** SQLSTATE class 22, data exception: a value the database cannot take (bad input, not a fault). */
export function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}
