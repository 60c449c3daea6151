/** Requests per minute a key may be given: far above any partner, and within the database's integer. */
export const MAX_RATE_LIMIT = 1_000_000;
