import express, { type Request, type RequestHandler } from 'express';
import { RequestTimeoutError, ValidationError } from '../errors/domain-errors.js';

const JSON_TYPES = ['application/json', 'application/*+json'];
const parse = express.json({ limit: '100kb', strict: true, type: JSON_TYPES });

/** docs/api.md, "Operating in production": a request body must arrive within 10 s of its headers. */
export const BODY_DEADLINE_MS = 10_000;

/**
 * Parses JSON bodies but holds back a parse error until authentication has run, so the order of
 * checks of docs/api.md ("Errors") holds (401, then 403 scope, then 400) even for a malformed body.
 * A body still incomplete `deadlineMs` after the headers is answered 408 at once and its connection closed,
 * so a client trickling bytes cannot hold a request (and its socket) open.
 */
export function jsonBody(deadlineMs = BODY_DEADLINE_MS): RequestHandler {
  return (req, res, next) => {
    // No body announced (most requests are GETs): body-parser sets the empty body at once, there is nothing to
    // time and no error to hold back, so no timer is made.
    if (req.headers['transfer-encoding'] === undefined && req.headers['content-length'] === undefined)
      return parse(req, res, next);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      res.setHeader('Connection', 'close');
      next(new RequestTimeoutError());
    }, deadlineMs);
    parse(req, res, (error?: unknown) => {
      clearTimeout(timer);
      if (timedOut) return;
      if (error) res.locals.bodyError = error;
      // A body sent as a form or text would otherwise be read as no body at all ("variant_id is required").
      else if (hasBody(req) && !req.is(JSON_TYPES))
        res.locals.bodyError = ValidationError.field(
          'body',
          'body must be JSON, sent with Content-Type: application/json',
        );
      next();
    });
  };
}

/**
 * Whether the request carries bytes. Not req.is()/type-is: they count `Content-Length: 0` as a body, and an
 * empty POST must stay "no body" (400 naming the first missing field), not a content-type error.
 */
const hasBody = (req: Request) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Raises the held-back body error, after authentication. */
export const rejectBadBody: RequestHandler = (_req, res, next) => {
  next(res.locals.bodyError);
};
