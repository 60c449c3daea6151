import { contract } from '@spa/contract';
import { initServer } from '@ts-rest/express';
import type { RouteDeps } from '../app-deps.js';
import { NotImplementedError } from '../http/not-implemented.js';

export function availabilityRouter(_deps: RouteDeps) {
  return initServer().router(contract.availability, {
    variant: async () => {
      throw new NotImplementedError();
    },
  });
}
