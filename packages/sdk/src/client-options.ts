import { randomUUID } from 'node:crypto';
import type { RetryOptions } from './retry.js';

export interface PartnerClientOptions {
  /** The API's base URL, for example `https://api.example.com` (a trailing `/v1` is dropped: the contract adds it). */
  baseUrl: string;
  /** Your secret key, `sk_live_…` (or `sk_test_…` in test mode), sent as `Authorization: Bearer`. Server-side only. */
  apiKey: string;
  /** A fetch of your own (proxy, instrumentation, tests); it must honour `init.signal`. Default: the global fetch. */
  fetch?: typeof fetch;
  /** Milliseconds each attempt may take before it is aborted (default 30 000); `false` waits for ever. */
  timeout?: number | false | undefined;
  /** Retries after the first attempt, for calls that are safe to retry (default 3); 0 never retries. */
  maxRetries?: number | undefined;
  /** The waits between attempts (merged with `defaultRetry`); `false` never retries, as `maxRetries: 0` does. */
  retry?: Partial<RetryOptions> | false;
  /** @deprecated Use `timeout`, which wins when both are given. */
  timeoutMs?: number | false;
}

/** Per call, the last argument of every method. `timeout` and `maxRetries` override the client's for this call. */
export interface CallOptions {
  /** Stops the call and its retries; the method rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** The X-Request-Id to send (1 to 128 of `A-Z a-z 0-9 . _ : -`); without it the SDK makes a UUID. */
  requestId?: string | undefined;
  /** Milliseconds each attempt of this call may take; `false` waits for ever. */
  timeout?: number | false | undefined;
  /** Retries after the first attempt of this call, when it is safe to retry; 0 never retries. */
  maxRetries?: number | undefined;
}

/** What the transport reads per call: the named methods pass them, and `api.raw` calls take them too. */
export type CallSettings = Pick<CallOptions, 'timeout' | 'maxRetries'>;

export const DEFAULT_TIMEOUT_MS = 30_000;
/** The longest timer Node keeps (2^31 - 1 ms, about 24 days). */
const MAX_TIMEOUT_MS = 2_147_483_647;
/** The server's rule for an id it echoes (the OpenAPI document's X-Request-Id parameter). */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The base URL without a trailing slash or `/v1`; a clear error when it is missing or not an http(s) URL. */
export function baseUrlOf(given: unknown): string {
  if (typeof given !== 'string' || given.trim() === '') {
    throw new TypeError(
      'createPartnerClient: baseUrl is required, the API base URL without /v1, for example https://api.example.com',
    );
  }
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new TypeError(`createPartnerClient: baseUrl ${JSON.stringify(given)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`createPartnerClient: baseUrl must be http or https, got ${url.protocol}`);
  }
  // fetch refuses a URL with credentials, and a query or fragment would end up inside every path.
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('createPartnerClient: baseUrl must not hold a user name or password; the key goes in apiKey');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new TypeError('createPartnerClient: baseUrl must not have a query (?…) or a fragment (#…)');
  }
  return given.trim().replace(/\/+$/, '').replace(/\/v1$/, '');
}

/**
 * The key as given, or a TypeError naming `apiKey` (never echoing it: it is a secret). Only the prefix is checked,
 * so a key of a newer format still passes; the API answers 401 for a key it does not know.
 */
export function apiKeyOf(given: unknown): string {
  const expected = 'your secret API key, sk_live_… or sk_test_…';
  if (typeof given !== 'string' || given.trim() === '') {
    const got = typeof given === 'string' ? 'an empty string' : given === null ? 'null' : typeof given;
    throw new TypeError(`createPartnerClient: apiKey is required, ${expected} (got ${got})`);
  }
  if (/^bearer\b/i.test(given)) {
    throw new TypeError(`createPartnerClient: apiKey is not an API key; pass ${expected}, without "Bearer"`);
  }
  if (/\s/.test(given)) {
    throw new TypeError(`createPartnerClient: apiKey holds a space or line break; pass ${expected}, alone`);
  }
  if (!/^sk_(?:live|test)_./.test(given)) {
    throw new TypeError(`createPartnerClient: apiKey is not an API key; pass ${expected}`);
  }
  return given;
}

/** A timeout in ms (rounded up), or undefined for `false`; `where` prefixes the error. */
export function timeoutOf(where: string, given: unknown): number | undefined {
  if (given === false) return undefined;
  if (typeof given !== 'number' || !(given > 0) || given > MAX_TIMEOUT_MS) {
    throw new TypeError(`${where}timeout must be a number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or false`);
  }
  return Math.ceil(given);
}

export function maxRetriesOf(where: string, given: unknown): number {
  if (typeof given !== 'number' || !Number.isInteger(given) || given < 0) {
    throw new TypeError(`${where}maxRetries must be a whole number from 0 (0 never retries)`);
  }
  return given;
}

/** The caller's X-Request-Id when it is one the API echoes, a new UUID when none was given. */
export function requestIdOf(given: string | undefined): string {
  if (given === undefined) return randomUUID();
  if (!REQUEST_ID.test(given)) {
    throw new TypeError('requestId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -, as the API echoes it');
  }
  return given;
}
