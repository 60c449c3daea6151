import {
  type CodedErrorBody,
  type ErrorBody,
  ErrorText,
  type InsufficientScopeErrorBody,
  type RescheduleFeeAppliesErrorBody,
  type ValidationErrorBody,
} from '@spa/contract';
import type { z } from 'zod';
import { parseRetryAfter } from './retry.js';
import { type RateLimit, rateLimitOf, type ResponseInfo } from './response-info.js';

/**
 * What `PartnerApiError.code` can be: the API's fixed `error` texts as the contract spells them (`ErrorText` of
 * @spa/contract), and three codes of the SDK for answers whose `error` is a sentence or absent:
 * `invalid_request` (a 400 naming a bad field: read `details`), `currency_mismatch` (the 422 naming the venue
 * currency) and `HTTP {status}` (no JSON error body, say from a proxy). The full text is always in `text`.
 */
export const ErrorCode = {
  ...ErrorText,
  InvalidRequest: 'invalid_request',
  CurrencyMismatch: 'currency_mismatch',
} as const;

/** A fixed text the API sends in `error`. */
export type KnownErrorCode = (typeof ErrorText)[keyof typeof ErrorText];
/** Every value `code` takes: a union, so a misspelt `case 'Venue not fund':` fails to compile. */
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode] | `HTTP ${number}`;

const KNOWN = new Set<string>(Object.values(ErrorText));

/** The code of an answer: its `error` when it is a fixed text, else what the status says it is. */
function codeOf(status: number, text: string | undefined): ErrorCode {
  if (text !== undefined && KNOWN.has(text)) return text as KnownErrorCode;
  if (status === 400 && text !== undefined) return ErrorCode.InvalidRequest;
  if (status === 422 && text !== undefined) return ErrorCode.CurrencyMismatch;
  return `HTTP ${status}`;
}

/** Every error body the contract declares, merged: `error` always, the rest depending on the answer. */
export type ApiErrorBody = Omit<z.infer<typeof ErrorBody>, 'request_id'> &
  Partial<Pick<z.infer<typeof ErrorBody>, 'request_id'>> &
  Partial<Pick<z.infer<typeof ValidationErrorBody>, 'details'>> &
  Partial<Pick<z.infer<typeof InsufficientScopeErrorBody>, 'missing'>> &
  Partial<Pick<z.infer<typeof CodedErrorBody>, 'message'>> &
  Partial<Pick<z.infer<typeof RescheduleFeeAppliesErrorBody>, 'fee'>>;

export type FieldProblem = NonNullable<ApiErrorBody['details']>[number];

/** Every non-2xx answer of the API, as one error type partners can `switch (error.code)` on. */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  /** What went wrong, to `switch` on (see `ErrorCode`). */
  readonly code: ErrorCode;
  /** The API's `error` text exactly as sent (a 400's names the bad field); `HTTP {status}` without a JSON body. */
  readonly text: string;
  /** On 403 `Insufficient scope`: the scopes the key lacks. */
  readonly missing: string[] | undefined;
  /** On 400: every field problem (absent for malformed JSON). */
  readonly details: FieldProblem[] | undefined;
  /** The X-Request-Id of the answer; quote it to support. */
  readonly requestId: string | undefined;
  /** The key's rate limit, when the API enforces one (`X-RateLimit-*`). */
  readonly rateLimit: RateLimit | undefined;
  /** On a 429 or 503: how long the API asks you to wait (`Retry-After`), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  /** Every header of the answer. */
  readonly headers: Headers | undefined;
  /** On 422 `RESCHEDULE_FEE_APPLIES`: what cancelling now would cost (the booking is inside a fee tier). */
  readonly fee: ApiErrorBody['fee'];

  constructor(
    readonly status: number,
    /** The body as received: an `ApiErrorBody`, or text when a proxy answered. */
    readonly body: unknown,
    headers?: Headers,
  ) {
    const json = isErrorBody(body) ? body : undefined;
    const text = json?.error ?? `HTTP ${status}`;
    const requestId = headers?.get('x-request-id') ?? json?.request_id ?? undefined;
    super(`${status} ${text}${json?.message ? `: ${json.message}` : ''}${requestId ? ` (request ${requestId})` : ''}`);
    this.code = codeOf(status, json?.error);
    this.text = text;
    this.missing = json?.missing;
    this.details = json?.details;
    this.requestId = requestId;
    this.rateLimit = headers && rateLimitOf(headers);
    this.retryAfterMs = parseRetryAfter(headers?.get('retry-after') ?? null);
    this.headers = headers;
    this.fee = json?.fee;
  }
}

/**
 * No answer came: the connection failed (refused, reset, DNS) on the last allowed attempt. The API may still have
 * received the request; quote `requestId` to support. A retryable call was retried first (`attempts`).
 */
export class PartnerConnectionError extends Error {
  override readonly name: string = 'PartnerConnectionError';
  constructor(
    message: string,
    /** The X-Request-Id the call sent, the same on every attempt. */
    readonly requestId: string,
    /** Attempts made, the first included. */
    readonly attempts: number,
    /** What the fetch threw on the last attempt. */
    override readonly cause: unknown,
  ) {
    super(message, { cause });
  }
}

/** No answer came within `timeout` ms on the last allowed attempt: that attempt's request was aborted. */
export class PartnerTimeoutError extends PartnerConnectionError {
  override readonly name: string = 'PartnerTimeoutError';
  constructor(
    /** The limit of each attempt, in ms. */
    readonly timeout: number,
    requestId: string,
    attempts: number,
    cause: unknown,
  ) {
    super(
      `No answer within ${timeout} ms (request ${requestId}, ${attempts} attempt${attempts === 1 ? '' : 's'})`,
      requestId,
      attempts,
      cause,
    );
  }
}

export function isErrorBody(body: unknown): body is ApiErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
}

/** A 2xx answer: `data` is the body's `data`; paginated lists add `pagination`. */
export type Success<T, S extends number = number, Extra = unknown> = {
  ok: true;
  status: S;
  data: T;
  /** True when the API answered a createBooking with the original booking (`Idempotent-Replayed: true`). */
  replayed: boolean;
  /** The answer's request id, rate limit, headers and the attempts made. */
  lastResponse: ResponseInfo;
} & Extra;

export interface Failure {
  ok: false;
  error: PartnerApiError;
  /** The answer's request id, rate limit, headers and the attempts made (`error` holds all but `attempts`). */
  lastResponse: ResponseInfo;
}

export type Result<T, S extends number = number, Extra = unknown> = Success<T, S, Extra> | Failure;
