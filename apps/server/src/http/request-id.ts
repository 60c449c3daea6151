import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { looksLikeSecret } from './redact-url.js';

/**
 * A caller's id is echoed (and logged) only when it is a sane token and not a credential sent by mistake;
 * anything else gets a fresh UUID.
 */
const SANE = /^[A-Za-z0-9._:-]{1,128}$/;

export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && SANE.test(given) && !looksLikeSecret(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};

export function requestIdOf(res: Response): string {
  return res.locals.requestId as string;
}
