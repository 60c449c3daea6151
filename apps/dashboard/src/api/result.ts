import { DashboardErrorText } from '@spa/contract/dashboard';
import type { SuccessfulHttpStatusCode } from '@ts-rest/core';

/** A refused or failed call, with what a person needs to report it: the server's text and the request id. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly requestId: string | undefined,
    readonly details: { path: string; message: string }[] = [],
    /** The kind of a sentence refusal (`not_started`…), or why a session ended (`removed`…), when the server says. */
    readonly code?: string,
    /** What to do about a refused Origin, when the server says. */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get notSignedIn(): boolean {
    return this.status === 401 && this.message === DashboardErrorText.NotSignedIn;
  }

  get needsRecentSignIn(): boolean {
    return this.status === 403 && this.message === DashboardErrorText.RecentSignInRequired;
  }
}

type Answer = { status: number; body: unknown; headers: Headers };
type Success<R> = Extract<R, { status: SuccessfulHttpStatusCode }>;

/** Listeners told when the server says the session is gone (expired, or ended elsewhere), with its reason. */
const sessionEndedListeners = new Set<(reason: string | undefined) => void>();

export function onSessionEnded(listener: (reason: string | undefined) => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** The body of a 2xx answer; anything else becomes an ApiError carrying the server's `error` and `request_id`. */
export async function ok<R extends Answer>(call: Promise<R>): Promise<Success<R>['body']> {
  let answer: R;
  try {
    answer = await call;
  } catch {
    throw new ApiError('The server could not be reached. Check your connection and try again.', 0, undefined);
  }
  if (answer.status >= 200 && answer.status < 300) return (answer as Success<R>).body;
  const error = toApiError(answer);
  if (error.notSignedIn) for (const listener of sessionEndedListeners) listener(error.code);
  throw error;
}

function toApiError(answer: Answer): ApiError {
  const body = answer.body as {
    error?: unknown;
    request_id?: unknown;
    details?: unknown;
    code?: unknown;
    reason?: unknown;
    hint?: unknown;
  } | null;
  const headerId = answer.headers.get('x-request-id') ?? undefined;
  const text =
    body && typeof body.error === 'string'
      ? body.error
      : `The server answered ${answer.status} ${statusText(answer.status)}`.trim();
  const requestId = body && typeof body.request_id === 'string' ? body.request_id : headerId;
  const details = body && Array.isArray(body.details) ? (body.details as ApiError['details']) : [];
  const code = typeof body?.code === 'string' ? body.code : typeof body?.reason === 'string' ? body.reason : undefined;
  const hint = typeof body?.hint === 'string' ? body.hint : undefined;
  return new ApiError(text, answer.status, requestId, details, code, hint);
}

function statusText(status: number): string {
  if (status === 502 || status === 504) return '(the server is not answering)';
  if (status >= 500) return '(server error)';
  return '';
}
