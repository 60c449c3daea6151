import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '../src/openapi/openapi-document.js';
import { releaseContract } from '../src/openapi/release-check/index.js';

/** `pnpm version-packages`, the one release step (docs/releasing.md): see releaseContract. */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = (args: string[]) => () => {
  const result = spawnSync('pnpm', args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(
      `\nversion-packages: \`pnpm ${args.join(' ')}\` failed after the check passed; \`git status\` shows what was written.`,
    );
    process.exit(1);
  }
};
const generated = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Record<string, unknown>;
const result = await releaseContract(root, generated, {
  changesetVersion: run(['exec', 'changeset', 'version']),
  // A new process: the document's info.version is read from @spa/contract's package.json when it loads.
  regenerate: run(['--silent', 'openapi']),
});
(result.outcome === 'refused' ? console.error : console.log)(result.lines.join('\n').trim());
process.exit(result.outcome === 'refused' ? 1 : 0);
