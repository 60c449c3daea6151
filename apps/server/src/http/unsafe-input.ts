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

/** A value met on the walk, with the way back to the root (its path is spelled only if it holds a NUL). */
interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

/**
 * Depth-first, in document order, with an explicit stack: a body nested thousands of levels deep (JSON.parse
 * accepts any depth within the 100 kB limit) must neither overflow the call stack nor build a path per level.
 */
export function nulPath(root: unknown, rootPath: string): string | undefined {
  const stack: Visit[] = [{ value: root, key: rootPath, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return pathOf(visit);
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        stack.push({ value: child, key, parent: visit });
      }
    }
  }
  return undefined;
}

function pathOf(visit: Visit): string {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at; at = at.parent) if (at.key) keys.push(at.key);
  return keys.reverse().join('.');
}
