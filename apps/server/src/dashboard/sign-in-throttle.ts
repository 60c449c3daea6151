import type pg from 'pg';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { RateLimitedError } from '../errors/domain-errors.js';
import { createRateLimiter } from '../rate-limit/rate-limiter.js';
import { hashToken } from './tokens.js';

/**
 * 5 failures for one email from one address in 15 minutes, 50 from one address, or 100 for one email
 * from all addresses answer 429; failures from other addresses never lock a person out of theirs.
 */
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const MAX_FAILURES_PER_EMAIL_AND_ADDRESS = 5;
export const MAX_FAILURES_PER_ADDRESS = 50;
export const MAX_FAILURES_PER_EMAIL = 100;

/**
 * Counts failed password checks (sign-in and confirmation) per email and address, per address and per email, in
 * the shared rate-limit store: the `rate_limits` table on PostgreSQL, so every server process counts the same
 * failures. The count of an email from every address (a guessing campaign spread over many addresses) does not
 * block an address the person has signed in from before (`isOwnAddress`): so nobody elsewhere can lock a person out.
 */
export class SignInThrottle {
  constructor(private readonly limiter: RateLimiterAbstract) {}

  static create(pool: pg.Pool | undefined): SignInThrottle {
    return new SignInThrottle(createRateLimiter(pool, { seconds: SIGN_IN_WINDOW_SECONDS, keyPrefix: 'sign-in' }));
  }

  /**
   * Refuses with 429 and Retry-After while a count is at its limit. `isOwnAddress` is asked only when the email's
   * count from every address is: whether the person behind the email has signed in from this address before.
   */
  async check(email: string, ip: string | null, isOwnAddress: () => Promise<boolean>): Promise<void> {
    const address = ip ?? 'unknown';
    const [byEmailAndAddress, byAddress, byEmail] = await Promise.all([
      this.limiter.get(emailAndAddressKey(email, address)),
      this.limiter.get(addressKey(address)),
      this.limiter.get(emailKey(email)),
    ]);
    const over = (count: typeof byEmail, limit: number) =>
      count && count.consumedPoints >= limit ? count.msBeforeNext : 0;
    let waitMs = Math.max(
      over(byEmailAndAddress, MAX_FAILURES_PER_EMAIL_AND_ADDRESS),
      over(byAddress, MAX_FAILURES_PER_ADDRESS),
    );
    const campaign = over(byEmail, MAX_FAILURES_PER_EMAIL);
    if (campaign > 0 && !(await isOwnAddress())) waitMs = Math.max(waitMs, campaign);
    if (waitMs > 0) throw new RateLimitedError(Math.max(Math.ceil(waitMs / 1000), 1));
  }

  async recordFailure(email: string, ip: string | null): Promise<void> {
    const address = ip ?? 'unknown';
    await Promise.all([
      this.limiter.consume(emailAndAddressKey(email, address)),
      this.limiter.consume(addressKey(address)),
      this.limiter.consume(emailKey(email)),
    ]);
  }

  /**
   * A successful sign-in clears the email's count from this address (not the address's own: one success should not
   * buy 50 guesses at other emails; nor the email's from everywhere: the campaign goes on elsewhere).
   */
  async recordSuccess(email: string, ip: string | null): Promise<void> {
    await this.limiter.delete(emailAndAddressKey(email, ip ?? 'unknown'));
  }
}

/** Hashed: an email can be 254 characters (the key column holds 255), and the table need not list addresses. */
const emailKey = (email: string) => `email:${hashToken(email)}`;
const emailAndAddressKey = (email: string, ip: string) => `email-ip:${hashToken(`${email}\n${ip}`)}`;
const addressKey = (ip: string) => `ip:${ip}`;
