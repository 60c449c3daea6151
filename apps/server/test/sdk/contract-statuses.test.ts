import { contract } from '@spa/contract';
import { dashboardContract } from '@spa/contract/dashboard';
import type { ClientInferResponses } from '@ts-rest/core';
import { describe, expect, expectTypeOf, it } from 'vitest';

/**
 * The statuses a route takes from a shared list (`...commonErrors`, `...bodyErrors`) are in its answer types, as
 * numbers (contract src/statuses.ts). The type assertions are checked by `pnpm typecheck`, the run-time ones here.
 */
describe("the contract's answer types", () => {
  it("list the shared error statuses of a route beside its own, on the partner's and the dashboard's contracts", () => {
    type CancelStatus = ClientInferResponses<typeof contract.bookings.cancel>['status'];
    expectTypeOf<401 | 429 | 500 | 503 | 408 | 413 | 415 | 200 | 422>().toExtend<CancelStatus>();
    expect(Object.keys(contract.bookings.cancel.responses).map(Number)).toEqual(
      expect.arrayContaining([200, 401, 408, 413, 415, 422, 429, 500, 503]),
    );
    type AcceptStatus = ClientInferResponses<typeof dashboardContract.bookings.accept>['status'];
    expectTypeOf<200 | 404 | 409 | 422>().toExtend<AcceptStatus>();
  });
});
