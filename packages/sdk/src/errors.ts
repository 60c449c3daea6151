import {
  type CodedErrorBody,
  type ErrorBody,
  ErrorText,
  type InsufficientScopeErrorBody,
  type ValidationErrorBody,
} from '@spa/contract';
import type { z } from 'zod';

/** The API's fixed `error` texts, as the contract spells them (see `ErrorText` in @spa/contract). */
export const ErrorCode = ErrorText;

export type KnownErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
/** A known code, or another text: a 400 names its first bad field in a sentence, a 422 states the venue currency. */
export type ErrorCodeText = KnownErrorCode | (string & {});

/** Every error body the contract declares, merged: `error` always, the rest depending on the answer. */
export type ApiErrorBody = Omit<z.infer<typeof ErrorBody>, 'request_id'> &
  Partial<Pick<z.infer<typeof ErrorBody>, 'request_id'>> &
  Partial<Pick<z.infer<typeof ValidationErrorBody>, 'details'>> &
  Partial<Pick<z.infer<typeof InsufficientScopeErrorBody>, 'missing'>> &
  Partial<Pick<z.infer<typeof CodedErrorBody>, 'message'>>;

export type FieldProblem = NonNullable<ApiErrorBody['details']>[number];

/** Every non-2xx answer of the API, as one error type partners can `switch (error.code)` on. */
export class PartnerApiError extends Error {
  override readonly name = 'PartnerApiError';
  /** The API's own `error` text (see `ErrorCode`); `HTTP {status}` when the answer had no JSON error body. */
  readonly code: ErrorCodeText;
  /** On 403 `Insufficient scope`: the scopes the key lacks. */
  readonly missing: string[] | undefined;
  /** On 400: every field problem (absent for malformed JSON). */
  readonly details: FieldProblem[] | undefined;
  /** The X-Request-Id of the answer; quote it to support. */
  readonly requestId: string | undefined;

  constructor(
    readonly status: number,
    /** The body as received: an `ApiErrorBody`, or text when a proxy answered. */
    readonly body: unknown,
    headers?: Headers,
  ) {
    const json = isErrorBody(body) ? body : undefined;
    const code = json?.error ?? `HTTP ${status}`;
    const requestId = headers?.get('x-request-id') ?? json?.request_id ?? undefined;
    super(`${status} ${code}${json?.message ? `: ${json.message}` : ''}${requestId ? ` (request ${requestId})` : ''}`);
    this.code = code;
    this.missing = json?.missing;
    this.details = json?.details;
    this.requestId = requestId;
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
} & Extra;

export interface Failure {
  ok: false;
  error: PartnerApiError;
}

export type Result<T, S extends number = number, Extra = unknown> = Success<T, S, Extra> | Failure;
