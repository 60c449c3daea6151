import { ErrorText } from '@spa/contract';
import { RequestValidationError } from '@ts-rest/express';
import type { ErrorRequestHandler } from 'express';
import { DomainError, InvalidJsonError, PayloadTooLargeError, ValidationError } from '../errors/domain-errors.js';
import { problemsOf } from './zod-problems.js';
import { requestIdOf } from './request-id.js';

/** The one place where failures become HTTP: domain errors keep their status, anything else is a 500. */
export const errorMapper: ErrorRequestHandler = (error, req, res, _next) => {
  const domain = toDomainError(error);
  const requestId = requestIdOf(res);
  if (!domain) {
    // Logged with its stack for us; the partner sees only the request id.
    req.log?.error({ err: error }, 'unhandled error');
    res.status(500).json({ error: ErrorText.InternalServerError, request_id: requestId });
    return;
  }
  // RFC 9110: a 401 names the scheme to use.
  if (domain.status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="partner-api"');
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
  // body-parser's own errors carry a `type`.
  const type = (error as { type?: string } | null)?.type;
  if (type === 'entity.parse.failed') return new InvalidJsonError();
  if (type === 'entity.too.large') return new PayloadTooLargeError();
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return ValidationError.field('body', 'body must be UTF-8 encoded JSON');
  }
  return undefined;
}
