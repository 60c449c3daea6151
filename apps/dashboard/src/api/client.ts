import { dashboardContract } from '@spa/contract/dashboard';
import { initClient, tsRestFetchApi } from '@ts-rest/core';
import { withMode } from '../lib/mode.js';

/** The session's CSRF token (GET /dashboard/api/session), sent on every state-changing call. */
let csrfToken: string | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The only way the app talks to the server: ts-rest's client made from the dashboard contract, so every request
 * and answer is typed by the contract's schemas. Same-origin cookies carry the session. In test mode every call
 * carries `mode=test`, reads and changes alike, so a page never mixes the two modes.
 */
export const api = initClient(dashboardContract, {
  baseUrl: '',
  credentials: 'same-origin',
  throwOnUnknownStatus: false,
  api: (plain) => {
    const args = { ...plain, path: withMode(plain.path) };
    return tsRestFetchApi(
      SAFE_METHODS.has(args.method) || csrfToken === undefined
        ? args
        : { ...args, headers: { ...args.headers, 'x-csrf-token': csrfToken } },
    );
  },
});
