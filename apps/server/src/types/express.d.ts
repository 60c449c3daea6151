import type { AppRoute } from '@ts-rest/core';

declare global {
  namespace Express {
    interface Request {
      /** Set by @ts-rest/express before any route middleware runs. */
      tsRestRoute?: AppRoute;
    }
  }
}

export {};
