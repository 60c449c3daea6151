import type pg from 'pg';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors/domain-errors.js';
import { createRateLimiter } from '../rate-limit/rate-limiter.js';
import { hashToken } from './tokens.js';

/** DECISIONS: 5 failed sign-ins for one email in 15 minutes, or 50 from one address, answer 429. */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL = 5;
export const MAX_FAILURES_PER_ADDRESS = 50;

/**
 * Counts failed password checks (sign-in and confirmation) per email and per client address, in the shared
 * rate-limit store: the `rate_limits` table on PostgreSQL, so every server process counts the same failures.
 */
export class SignInThrottle {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  static create(pool: pg.Pool | undefined): SignInThrottle {
    return new SignInThrottle(createRateLimiter(pool, { seconds: SIGN_IN_WINDOW_SECONDS, keyPrefix: 'sign-in' }));
  }

  /** Refuses with 429 and Retry-After while either count is at its limit. */
  async check(email: string, ip: string | null): Promise<void> {
    const [byEmail, byAddress] = await Promise.all([
      this.limiter.get(emailKey(email)),
      ip === null ? null : this.limiter.get(addressKey(ip)),
    ]);
    const blocked = [
      byEmail && byEmail.consumedPoints >= MAX_FAILURES_PER_EMAIL ? byEmail.msBeforeNext : 0,
      byAddress && byAddress.consumedPoints >= MAX_FAILURES_PER_ADDRESS ? byAddress.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...blocked);
    if (waitMs > 0) throw new RateLimitedError(Math.max(Math.ceil(waitMs / 1000), 1));
  }

  async recordFailure(email: string, ip: string | null): Promise<void> {
    await Promise.all([
      this.limiter.consume(emailKey(email)),
      ip === null ? undefined : this.limiter.consume(addressKey(ip)),
    ]);
  }

  /** A successful sign-in clears the email's count (not the address's: one success should not buy 50 guesses). */
  async recordSuccess(email: string): Promise<void> {
    await this.limiter.delete(emailKey(email));
  }
}

/** Hashed: an email can be 254 characters (the key column holds 255), and the table need not list addresses. */
const emailKey = (email: string) => `email:${hashToken(email)}`;
const addressKey = (ip: string) => `ip:${ip}`;
