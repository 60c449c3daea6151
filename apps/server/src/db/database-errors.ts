/**
 * Failures that say "the database cannot serve this now", not "this request is wrong": the server is down,
 * restarting or refusing connections, a connection was cut, none could be had in time, or a statement ran past
 * its timeout. They become 503 with Retry-After (http/error-mapper.ts); retrying later is the cure.
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (pg_terminate_backend, fast shutdown)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '57014', // query_canceled (statement_timeout)
  '55P03', // lock_not_available (lock_timeout)
  '53300', // too_many_connections
  '53400', // configuration_limit_exceeded
  '40P01', // deadlock_detected (left over after the retries of a create)
  '25006', // read_only_sql_transaction (a primary turned standby during a fail-over)
]);

const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'EMFILE',
]);

/** pg reports a lost or unobtainable connection with plain Errors; these are their texts. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Client was closed',
  'Query read timeout',
  'not currently accepting connections',
  'the database system is',
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Walk the cause chain iteratively: a wrapper (a migration failure, an aggregate) may hold the real error.
  for (let current = error, depth = 0; current && depth < 10; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause, errors } = current as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      errors?: unknown;
    };
    // Class 08 is every connection exception.
    if (
      typeof code === 'string' &&
      (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code))
    )
      return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text))) return true;
    // Node's connection attempts to several addresses (IPv4 and IPv6) fail as one AggregateError.
    if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner))) return true;
    current = cause;
  }
  return false;
}
