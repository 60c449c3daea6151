import { ErrorText } from '@spa/contract';
import { RequestValidationError } from '@ts-rest/express';
import type { ErrorRequestHandler } from 'express';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import {
  DomainError,
  InvalidJsonError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  UnsupportedContentEncodingError,
  ValidationError,
} from '../errors/domain-errors.js';
import { DashboardError } from '../errors/dashboard-errors.js';
import { problemsOf } from './zod-problems.js';
import { requestIdOf } from './request-id.js';

/** The one place where failures become HTTP: domain errors keep their status, anything else is a 500. */
export const errorMapper: ErrorRequestHandler = (error, req, res, _next) => {
  if (res.headersSent) {
    // Too late for an error response (a body was streaming): end the connection so the client sees the failure.
    req.log?.error({ err: error }, 'error after the response started');
    res.destroy();
    return;
  }
  const domain = toDomainError(error);
  const requestId = requestIdOf(res);
  if (!domain) {
    // Logged with its stack for us; the partner sees only the request id.
    req.log?.error({ err: error }, 'unhandled error');
    res.status(500).json({ error: ErrorText.InternalServerError, request_id: requestId });
    return;
  }
  if (domain instanceof ServiceUnavailableError) req.log?.warn({ err: domain.cause }, 'service unavailable');
  // RFC 9110: a 401 names the scheme to use (the partner API's; the dashboard's cookie session has none).
  if (domain.status === 401 && !(domain instanceof DashboardError))
    res.setHeader('WWW-Authenticate', 'Bearer realm="partner-api"');
  if (domain.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(domain.retryAfterSeconds));
  res.status(domain.status).json({ ...domain.body(), request_id: requestId });
};

export function toDomainError(error: unknown): DomainError | undefined {
  if (error instanceof DomainError) return error;
  if (error instanceof RequestValidationError) {
    return new ValidationError([
      ...(error.pathParams ? problemsOf(error.pathParams) : []),
      ...(error.headers ? problemsOf(error.headers) : []),
      ...(error.query ? problemsOf(error.query, 'query') : []),
      ...(error.body ? problemsOf(error.body, 'body') : []),
    ]);
  }
  if (isDatabaseUnavailable(error)) return new ServiceUnavailableError({ cause: error });
  return bodyParserError(error);
}

/** body-parser's errors: http-errors with a `type`, or with a client status and the stream's error inside. */
function bodyParserError(error: unknown): DomainError | undefined {
  const { type, status, code } = (error ?? {}) as { type?: string; status?: number; code?: string };
  if (type === 'entity.parse.failed') return new InvalidJsonError();
  if (type === 'entity.too.large') return new PayloadTooLargeError();
  if (type === 'encoding.unsupported') return new UnsupportedContentEncodingError();
  if (type === 'charset.unsupported') return ValidationError.field('body', 'body must be UTF-8 encoded JSON');
  if (type === 'request.size.invalid')
    return ValidationError.field('body', 'body length does not match its Content-Length');
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR...) surface as a 400 without a type.
  if (status === 400 && typeof code === 'string' && code.startsWith('Z_'))
    return ValidationError.field('body', 'body could not be decompressed as its Content-Encoding says');
  if (type === 'request.aborted') return ValidationError.field('body', 'body ended before it was complete');
  return undefined;
}
