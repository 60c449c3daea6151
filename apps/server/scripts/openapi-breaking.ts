import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { checkRepository } from '../src/openapi/release-check/index.js';

/**
 * `pnpm openapi:breaking`: the contract's release rules (docs/releasing.md). The document the contract generates
 * now against the released document of the current version, each released document against the one before it, and
 * every version label (packages, info.version, newest released document, changelogs) in agreement.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const check = await checkRepository(root, {
  generated: JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>,
});
console.log(check.lines.join('\n').trim());
console.log(
  check.ok ? '\npnpm openapi:breaking: ok' : '\npnpm openapi:breaking: FAILED (each FAIL line above says what to do)',
);
process.exit(check.ok ? 0 : 1);
