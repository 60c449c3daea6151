import type { AppRoute } from '@ts-rest/core';
import type { RequestLogger } from '../http/request-log.js';

declare global {
  namespace Express {
    interface Request {
      /** Set by @ts-rest/express before any route middleware runs. */
      tsRestRoute?: AppRoute;
      /** The request's logger (http/request-log.ts); absent on the probes and scrapes answered before it. */
      log?: RequestLogger | undefined;
    }
  }
}

export {};
