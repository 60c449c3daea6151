import express, { type RequestHandler } from 'express';

const parse = express.json({ limit: '100kb', strict: true, type: ['application/json', 'application/*+json'] });

/**
 * Parses JSON bodies but holds back a parse error until authentication has run, so the order of
 * checks of DECISIONS holds (401, then 403 scope, then 400) even for a malformed body.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  parse(req, res, (error?: unknown) => {
    if (error) res.locals.bodyError = error;
    next();
  });
};

/** Raises the held-back body error, after authentication. */
export const rejectBadBody: RequestHandler = (_req, res, next) => {
  next(res.locals.bodyError);
};
