import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { serializeDocument } from '../src/openapi/serialize.js';
import { heyApiClient, oazapftsClient, openapiTypescriptClient } from '../test/openapi/clients/generate.js';

/**
 * Writes docs/openapi.json, and the clients three generators make of it for the generated-client test
 * (openapi-typescript, oazapfts, @hey-api/openapi-ts); CI regenerates them all and fails when a checked-in copy differs.
 */
const target = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
const document = buildOpenApiDocument();
writeFileSync(target, serializeDocument(document));
console.log(`wrote ${target}`);
const types = fileURLToPath(new URL('../test/openapi/clients/openapi-typescript.ts', import.meta.url));
writeFileSync(types, await openapiTypescriptClient(document));
console.log(`wrote ${types}`);
const oazapfts = fileURLToPath(new URL('../test/openapi/clients/oazapfts.ts', import.meta.url));
writeFileSync(oazapfts, await oazapftsClient(target));
console.log(`wrote ${oazapfts}`);
const heyApi = fileURLToPath(new URL('../test/openapi/clients/hey-api', import.meta.url));
await heyApiClient(target, heyApi);
console.log(`wrote ${heyApi}`);
