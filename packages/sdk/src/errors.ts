/** Every non-2xx answer of the API as one error type partners can `switch` on. */
export class PartnerApiError extends Error {
  constructor(
    readonly status: number,
    /** The API's own `error` text: `slot_unavailable`, `duplicate_external_id`, `BOOKING_NOT_FOUND`, `Forbidden`, … */
    readonly code: string,
    readonly body: unknown,
    readonly requestId: string | undefined,
  ) {
    super(`${status} ${code}${requestId ? ` (request ${requestId})` : ''}`);
    this.name = 'PartnerApiError';
  }

  /** Scopes the key lacks, on 403 Insufficient scope. */
  get missing(): string[] {
    return (this.body as { missing?: string[] } | null)?.missing ?? [];
  }

  /** Every field problem, on 400. */
  get details(): { path: string; message: string }[] {
    return (this.body as { details?: { path: string; message: string }[] } | null)?.details ?? [];
  }
}

export type Result<T> = { ok: true; status: number; data: T; replayed: boolean } | { ok: false; error: PartnerApiError };

export function toError(status: number, body: unknown, headers: Headers): PartnerApiError {
  const error = (body as { error?: unknown } | null)?.error;
  return new PartnerApiError(status, typeof error === 'string' ? error : `HTTP ${status}`, body, headers.get('x-request-id') ?? undefined);
}
