import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import getReleasePlan from '@changesets/get-release-plan';
import { judge } from '../src/openapi/breaking.js';
import { buildOpenApiDocument, CONTRACT_VERSION } from '../src/openapi/openapi-document.js';

/**
 * `pnpm openapi:breaking`: compares the document the contract generates now with the last released one
 * (docs/openapi.released.json) and fails on a breaking change unless the next version of @spa/contract, what the
 * pending changesets make of it, is a new major.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const released = JSON.parse(readFileSync(`${root}docs/openapi.released.json`, 'utf8')) as Record<string, unknown>;
const plan = await getReleasePlan(root);
const next = plan.releases.find((release) => release.name === '@spa/contract')?.newVersion ?? CONTRACT_VERSION;
const verdict = judge(released, JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>, next);
for (const change of verdict.breaking) console.log(`  breaking: ${change.description} (${change.path})`);
console.log(verdict.message);
process.exit(verdict.ok ? 0 : 1);
