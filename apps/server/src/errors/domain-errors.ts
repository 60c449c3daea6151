import { ErrorText, type FieldProblem as FieldProblemSchema } from '@spa/contract';
import type { z } from 'zod';

/**
 * Every failure a partner can see, as a typed error. Services throw these; http/error-mapper.ts is the
 * one place that turns them into status codes and bodies, with the texts of docs/api.md ("Errors").
 */
export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract body(): Record<string, unknown>;
  /** Seconds a client should wait before trying again, sent as Retry-After (429, 503). */
  readonly retryAfterSeconds?: number;
}

/** Errors whose body is `{ error: text }` (the interface's lower-case texts). */
abstract class PlainError extends DomainError {
  protected abstract readonly text: string;
  body(): Record<string, unknown> {
    return { error: this.text };
  }
}

export class MissingApiKeyError extends PlainError {
  readonly status = 401;
  readonly text = ErrorText.MissingApiKey;
}
export class InvalidApiKeyError extends PlainError {
  readonly status = 401;
  readonly text = ErrorText.InvalidApiKey;
}
export class ForbiddenError extends PlainError {
  readonly status = 403;
  readonly text = ErrorText.Forbidden;
}
export class VenueNotFoundError extends PlainError {
  readonly status = 404;
  readonly text = ErrorText.VenueNotFound;
}
export class VariantNotFoundError extends PlainError {
  readonly status = 404;
  readonly text = ErrorText.VariantNotFound;
}
export class CustomerNotFoundError extends PlainError {
  readonly status = 404;
  readonly text = ErrorText.CustomerNotFound;
}
export class RouteNotFoundError extends PlainError {
  readonly status = 404;
  readonly text = ErrorText.RouteNotFound;
}
export class InvalidJsonError extends PlainError {
  readonly status = 400;
  readonly text = ErrorText.InvalidJson;
}
export class PayloadTooLargeError extends PlainError {
  readonly status = 413;
  readonly text = ErrorText.PayloadTooLarge;
}
export class RateLimitedError extends PlainError {
  readonly status = 429;
  readonly text = ErrorText.RateLimitExceeded;
  constructor(override readonly retryAfterSeconds: number) {
    super(ErrorText.RateLimitExceeded);
  }
}
/** GET /metrics without the operator's METRICS_TOKEN (not a partner route: its text is not in the contract). */
export class MetricsTokenError extends PlainError {
  readonly status = 401;
  readonly text = 'Missing or invalid metrics token';
}
export class UnsupportedContentEncodingError extends PlainError {
  readonly status = 415;
  readonly text = ErrorText.UnsupportedContentEncoding;
}
export class RequestTimeoutError extends PlainError {
  readonly status = 408;
  readonly text = ErrorText.RequestTimeout;
}
/** The database is down, refusing, cut off or too slow: a transient state, so 503 with Retry-After. */
export class ServiceUnavailableError extends PlainError {
  readonly status = 503;
  readonly text = ErrorText.ServiceUnavailable;
  override readonly retryAfterSeconds = 2;
  constructor(options?: ErrorOptions) {
    super(ErrorText.ServiceUnavailable, options);
  }
}
export class SlotUnavailableError extends PlainError {
  readonly status = 409;
  readonly text = ErrorText.SlotUnavailable;
}
/** The read of one booking: `Booking not found` (the cancel endpoint answers BOOKING_NOT_FOUND instead). */
export class NoSuchBookingError extends PlainError {
  readonly status = 404;
  readonly text = ErrorText.NoSuchBooking;
}
export class DuplicateExternalIdError extends PlainError {
  readonly status = 409;
  readonly text = ErrorText.DuplicateExternalId;
}

export class InsufficientScopeError extends DomainError {
  readonly status = 403;
  constructor(readonly missing: string[]) {
    super(ErrorText.InsufficientScope);
  }
  body() {
    return { error: ErrorText.InsufficientScope, missing: this.missing };
  }
}

/** One problem of a 400, as the contract declares it. */
export type FieldProblem = z.infer<typeof FieldProblemSchema>;

/** 400: `error` is the first problem's sentence, `details` lists every problem (docs/api.md, "Errors"). */
export class ValidationError extends DomainError {
  readonly status = 400;
  constructor(readonly details: FieldProblem[]) {
    super(details[0]?.message ?? 'Invalid request');
  }
  static field(path: string, message: string) {
    return new ValidationError([{ path, message }]);
  }
  body() {
    return { error: this.message, details: this.details };
  }
}

export class CurrencyMismatchError extends DomainError {
  readonly status = 422;
  constructor(readonly venueCurrency: string) {
    super(`price_paid.currency must equal the venue currency (${venueCurrency})`);
  }
  body() {
    return { error: this.message };
  }
}

/** Upper-case coded errors of the cancel endpoint: `{ error: CODE, message }`. */
abstract class CodedError extends DomainError {
  protected abstract readonly code: string;
  body() {
    return { error: this.code, message: this.message };
  }
}

export class BookingNotFoundError extends CodedError {
  readonly status = 404;
  readonly code = ErrorText.BookingNotFound;
  constructor() {
    super('Booking not found');
  }
}
export class BookingAlreadyCancelledError extends CodedError {
  readonly status = 422;
  readonly code = ErrorText.BookingAlreadyCancelled;
  constructor(status: string, refused: 'cancelled' | 'rescheduled' = 'cancelled') {
    super(`Booking is already ${status.replace('_', '-')} and cannot be ${refused}`);
  }
}
/** Reschedule of a booking that has started, completed or was a no-show. */
export class BookingNotReschedulableError extends CodedError {
  readonly status = 422;
  readonly code = ErrorText.BookingNotReschedulable;
  constructor(why: string) {
    super(`Booking ${why} and cannot be rescheduled`);
  }
}
/** Reschedule inside a fee tier: the partner cancels (and pays) instead; `fee` is what that would cost now. */
export class RescheduleFeeAppliesError extends CodedError {
  readonly status = 422;
  readonly code = ErrorText.RescheduleFeeApplies;
  constructor(readonly fee: { amount: number; currency: string }) {
    super(`A partner cancellation now would cost ${fee.currency} ${fee.amount}: cancel instead`);
  }
  override body() {
    return { ...super.body(), fee: this.fee };
  }
}
export class BookingForbiddenError extends CodedError {
  readonly status = 403;
  readonly code = ErrorText.BookingForbidden;
  constructor() {
    super('This booking belongs to a venue your key cannot access');
  }
}
export class AmbiguousExternalIdError extends CodedError {
  readonly status = 409;
  readonly code = ErrorText.AmbiguousExternalId;
  constructor(message = 'This external id matches bookings at several venues; cancel by booking id') {
    super(message);
  }
}
