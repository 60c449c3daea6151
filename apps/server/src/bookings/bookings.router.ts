import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { NotImplementedError } from '../http/not-implemented.js';

export function bookingsRouter(_deps: RouteDeps) {
  return initServer().router(contract.bookings, {
    create: async () => {
      throw new NotImplementedError();
    },
    cancel: async () => {
      throw new NotImplementedError();
    },
  });
}
