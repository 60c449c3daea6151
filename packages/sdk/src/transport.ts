import { contract } from '@spa/contract';
import { type ApiFetcherArgs, validateResponse } from '@ts-rest/core';
import { type CallSettings, maxRetriesOf, requestIdOf, timeoutOf } from './client-options.js';
import { isErrorBody, PartnerConnectionError, PartnerTimeoutError } from './errors.js';
import { restoreUnknownValues, withKnownEnumValues } from './open-enums.js';
import { responseInfo, type ResponseInfo } from './response-info.js';
import { backoff, isNetworkError, isRetryableAnswer, type RetryOptions, retryDelay, sleep } from './retry.js';

export interface TransportOptions {
  fetch: typeof fetch;
  retry: RetryOptions;
  /** Per attempt; undefined waits for ever. */
  timeout: number | undefined;
}

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
  json: boolean;
}

/** What the fetcher gives ts-rest: its usual answer, and the ResponseInfo the named methods return. */
export interface Answered {
  status: number;
  body: unknown;
  headers: Headers;
  lastResponse: ResponseInfo;
}

/**
 * The ts-rest fetcher of the client: ts-rest's own calls the global fetch, this one takes the partner's, sends one
 * X-Request-Id on every attempt of a call (as stripe-node keeps one Idempotency-Key), retries what is safe to retry,
 * then validates the final JSON answer against the contract.
 */
export function createFetcher(options: TransportOptions) {
  return async (args: ApiFetcherArgs & CallSettings): Promise<Answered> => {
    const timeout = args.timeout === undefined ? options.timeout : timeoutOf('', args.timeout);
    const attempts = args.maxRetries === undefined ? options.retry.attempts : maxRetriesOf('', args.maxRetries) + 1;
    const requestId = requestIdOf(args.headers['x-request-id']);
    const headers = { ...args.headers, 'x-request-id': requestId };
    const safe = args.method === 'GET' || (isCreateBooking(args) && hasExternalId(args.rawBody)) || isReschedule(args);
    const signal = args.fetchOptions?.signal ?? undefined;
    for (let attempt = 1; ; attempt++) {
      const last = !safe || attempt >= attempts;
      const timer = timeout === undefined ? undefined : AbortSignal.timeout(timeout);
      let answer: Answer;
      try {
        answer = await exchange(options.fetch, args, headers, [signal, timer]);
      } catch (error) {
        const timedOut = timer?.aborted === true;
        if (signal?.aborted || !(timedOut || isNetworkError(error))) throw error;
        if (last) {
          throw timedOut
            ? new PartnerTimeoutError(timeout!, requestId, attempt, error)
            : new PartnerConnectionError(connectionMessage(error, requestId, attempt), requestId, attempt, error);
        }
        await sleep(backoff(attempt, options.retry), signal);
        continue;
      }
      if (!last && isRetryableAnswer(answer.status, isErrorBody(answer.body) ? answer.body.error : undefined)) {
        const wait = retryDelay(attempt, options.retry, answer.headers.get('retry-after'));
        if (wait !== undefined) {
          await sleep(wait, signal);
          continue;
        }
      }
      return finish(args, answer, responseInfo(answer.status, answer.headers, requestId, attempt));
    }
  };
}

/** `fetch failed (ECONNREFUSED; request …, 4 attempts)`: undici hides the reason in `cause.code`. */
function connectionMessage(error: unknown, requestId: string, attempts: number): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  const plural = attempts === 1 ? '' : 's';
  return `${message} (${typeof code === 'string' ? `${code}; ` : ''}request ${requestId}, ${attempts} attempt${plural})`;
}

function isCreateBooking(args: ApiFetcherArgs): boolean {
  return args.route.method === contract.bookings.create.method && args.route.path === contract.bookings.create.path;
}

/** A reschedule to a given start is idempotent: once moved, the same start_at answers 200 and changes nothing. */
function isReschedule(args: ApiFetcherArgs): boolean {
  return (
    args.route.method === contract.bookings.reschedule.method && args.route.path === contract.bookings.reschedule.path
  );
}

function hasExternalId(body: unknown): boolean {
  const id = typeof body === 'object' && body !== null ? (body as { external_id?: unknown }).external_id : undefined;
  return typeof id === 'string' && id.length > 0;
}

async function exchange(
  fetchImpl: typeof fetch,
  args: ApiFetcherArgs,
  headers: Record<string, string>,
  given: (AbortSignal | undefined)[],
): Promise<Answer> {
  const signals = given.filter((s): s is AbortSignal => s !== undefined);
  const response = await fetchImpl(args.path, {
    ...args.fetchOptions,
    method: args.method,
    headers,
    body: args.body,
    signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
  });
  const text = await response.text();
  const declaredJson = /application\/(?:[\w.+-]+\+)?json/i.test(response.headers.get('content-type') ?? '');
  if (declaredJson && text !== '') {
    // A gateway's broken "JSON" stays text, so a 502 from a proxy is still a retryable answer.
    try {
      return { status: response.status, body: JSON.parse(text), headers: response.headers, json: true };
    } catch {
      /* fall through */
    }
  }
  return { status: response.status, body: text, headers: response.headers, json: false };
}

/**
 * A JSON answer that breaks its contract schema throws ResponseValidationError: a bug to report, not a result. A
 * value an open enum gained after this SDK's contract is not a break: the answer is checked with a known value in
 * its place, then returned with the value as sent (typed as the union; a `default` branch handles it).
 */
function finish(args: ApiFetcherArgs, answer: Answer, lastResponse: ResponseInfo): Answered {
  const response = { status: answer.status, body: answer.body, headers: answer.headers };
  if (!answer.json || !(args.validateResponse ?? args.route.validateResponseOnClient)) {
    return { ...response, lastResponse };
  }
  try {
    return { ...response, body: validateResponse({ appRoute: args.route, response }).body, lastResponse };
  } catch (error) {
    const tolerated = withKnownEnumValues(error, answer.body);
    if (!tolerated) throw error;
    const checked = validateResponse({ appRoute: args.route, response: { ...response, body: tolerated.body } });
    return { ...response, body: restoreUnknownValues(checked.body, tolerated.unknown), lastResponse };
  }
}
