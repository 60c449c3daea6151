import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';

/** Writes docs/openapi.json; CI regenerates it and fails when the checked-in copy differs. */
const target = fileURLToPath(new URL('../../../docs/openapi.json', import.meta.url));
writeFileSync(target, JSON.stringify(buildOpenApiDocument(), null, 2) + '\n');
console.log(`wrote ${target}`);
