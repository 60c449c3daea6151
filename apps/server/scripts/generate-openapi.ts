import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { serializeDocument } from '../src/openapi/serialize.js';

/** Writes docs/openapi.json; CI regenerates it and fails when the checked-in copy differs. */
const target = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
writeFileSync(target, serializeDocument(buildOpenApiDocument()));
console.log(`wrote ${target}`);
