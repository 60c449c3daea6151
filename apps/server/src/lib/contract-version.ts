import { createRequire } from 'node:module';

/**
 * The API's version: the contract package's. The OpenAPI document's `info.version` and `spa --version` say it;
 * every change to what the document says is a change of the contract, released with a changeset that moves it
 * (docs/releasing.md).
 */
export const CONTRACT_VERSION = (createRequire(import.meta.url)('@spa/contract/package.json') as { version: string })
  .version;
