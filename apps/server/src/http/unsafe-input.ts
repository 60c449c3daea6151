import type { RequestHandler } from 'express';
import { ValidationError } from '../errors/domain-errors.js';

/**
 * A path Express cannot percent-decode (`/v1/venues/%E9`) would fail inside its router with a URIError.
 * It is answered like any bad path, after authentication, so the order of checks holds (401 before 400).
 */
export function rejectUndecodablePath(authenticate: RequestHandler): RequestHandler {
  return (req, res, next) => {
    try {
      decodeURIComponent(req.path);
      return next();
    } catch {
      authenticate(req, res, (error?: unknown) =>
        next(error ?? ValidationError.field('path', 'path must be valid percent-encoded UTF-8')),
      );
    }
  };
}

/**
 * PostgreSQL text cannot hold the NUL character, so a `\u0000` in a path, query or body value would fail in
 * the database. It is a 400 naming the first field that holds one, in the order path, query, body.
 */
export const rejectNulCharacters: RequestHandler = (req, _res, next) => {
  const at = nulPath(req.params, '') ?? nulPath(req.query, '') ?? nulPath(req.body, '');
  next(
    at === undefined
      ? undefined
      : ValidationError.field(at || 'body', `${at || 'body'} must not contain the NUL character (\\u0000)`),
  );
};

function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = nulPath(child, path ? `${path}.${key}` : key);
    if (found !== undefined) return found;
  }
  return undefined;
}
