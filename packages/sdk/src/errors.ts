import {
  type CodedErrorBody,
  type ErrorBody,
  ErrorText,
  type InsufficientScopeErrorBody,
  type ValidationErrorBody,
} from '@spa/contract';
import type { z } from 'zod';

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
  Partial<Pick<z.infer<typeof CodedErrorBody>, 'message'>>;

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
