/**
 * The database timeouts' defaults, apart from connect.ts so that the configuration reads them without loading the
 * database stack (main.ts loads the configuration first, and the rest while DATA_DIR is prepared).
 */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 5000;
export const DEFAULT_ACQUIRE_TIMEOUT_MS = 2000;
/** The client-side bound: the statement timeout plus a second for the cancellation to come back (30 s without). */
export const defaultQueryTimeoutMs = (statementTimeoutMs: number) =>
  statementTimeoutMs > 0 ? statementTimeoutMs + 1000 : 30_000;
