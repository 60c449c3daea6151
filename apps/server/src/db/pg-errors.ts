/** PostgreSQL error classes the services act on, from pg or PGlite alike (both carry the SQLSTATE in `code`). */
interface PgError {
  code?: string;
  constraint?: string;
  message?: string;
}

/**
 * A race the database settled by aborting us: an overlap lost to a concurrent booking (exclusion_violation),
 * a deadlock between two writers waiting on each other, or a serialization failure.
 */
export function isLostRace(error: unknown): boolean {
  const code = (error as PgError | null)?.code;
  return code === '23P01' || code === '40P01' || code === '40001';
}

/** A unique_violation of the named constraint (PGlite names it only in the message). */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as PgError | null;
  return e?.code === '23505' && (e.constraint === constraint || (e.message ?? '').includes(constraint));
}
