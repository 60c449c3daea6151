import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';
import { serializeDocument } from '../../src/openapi/serialize.js';

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edits of a JSON document

export const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const base = JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;

/** The document the contract generates now, labelled `version`: a copy to change. */
export function documentAt(version: string): Json {
  const copy = JSON.parse(JSON.stringify(base)) as Json;
  copy.info.version = version;
  return copy;
}

export interface Changeset {
  /** `{ '@spa/contract': 'minor', '@spa/sdk': 'minor' }` */
  releases: Record<string, 'major' | 'minor' | 'patch'>;
  body: string;
}

export interface Fixture {
  /** Both packages' version (and the changelogs' top entry unless `changelogTop` says otherwise). */
  version: string;
  /** docs/openapi-releases/<version>.json */
  releases: Record<string, Json>;
  /** docs/openapi-releases/<version>.breaking.md */
  acknowledgements?: Record<string, string>;
  changesets?: Record<string, Changeset>;
  /** docs/openapi.json as written on disk; the release file of `version` when not given. */
  document?: Json;
  sdkVersion?: string;
  changelogTop?: string;
  apiMd?: string;
}

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

const writeJson = (file: string, value: unknown) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
};

/**
 * A throwaway repository with what the release check reads: the two packages, their changelogs, the Changesets
 * config of the real repository and pending changesets, the released documents and docs/openapi.json. Its
 * node_modules is the real one, so `changeset version` runs in it as in the repository.
 */
export function makeRepository(fixture: Fixture): string {
  const root = mkdtempSync(join(tmpdir(), 'release-check-'));
  roots.push(root);
  writeFileSync(join(root, 'pnpm-workspace.yaml'), 'packages:\n  - packages/*\n');
  writeJson(join(root, 'package.json'), { name: 'fixture', private: true });
  symlinkSync(join(repositoryRoot, 'node_modules'), join(root, 'node_modules'));
  const versions = { contract: fixture.version, sdk: fixture.sdkVersion ?? fixture.version };
  writeJson(join(root, 'packages/contract/package.json'), { name: '@spa/contract', version: versions.contract });
  writeJson(join(root, 'packages/sdk/package.json'), {
    name: '@spa/sdk',
    version: versions.sdk,
    dependencies: { '@spa/contract': 'workspace:*' },
  });
  for (const name of ['contract', 'sdk']) {
    writeFileSync(
      join(root, `packages/${name}/CHANGELOG.md`),
      `# @spa/${name}\n\n## ${fixture.changelogTop ?? fixture.version}\n\nA release.\n`,
    );
  }
  mkdirSync(join(root, '.changeset'));
  copyFileSync(join(repositoryRoot, '.changeset/config.json'), join(root, '.changeset/config.json'));
  for (const [name, changeset] of Object.entries(fixture.changesets ?? {})) {
    const header = Object.entries(changeset.releases).map(([pkg, bump]) => `'${pkg}': ${bump}`);
    writeFileSync(join(root, `.changeset/${name}.md`), ['---', ...header, '---', '', changeset.body, ''].join('\n'));
  }
  mkdirSync(join(root, 'docs/openapi-releases'), { recursive: true });
  for (const [version, document] of Object.entries(fixture.releases)) {
    writeFileSync(join(root, `docs/openapi-releases/${version}.json`), serializeDocument(document));
  }
  for (const [version, text] of Object.entries(fixture.acknowledgements ?? {})) {
    writeFileSync(join(root, `docs/openapi-releases/${version}.breaking.md`), text);
  }
  const written = fixture.document ?? fixture.releases[fixture.version] ?? documentAt(fixture.version);
  writeFileSync(join(root, 'docs/openapi.json'), serializeDocument(written));
  if (fixture.apiMd !== undefined) writeFileSync(join(root, 'docs/api.md'), fixture.apiMd);
  return root;
}

export const read = (root: string, file: string) => readFileSync(join(root, file), 'utf8');

/** Both packages at one bump, with a text for the changelog. */
export const bothAt = (bump: 'major' | 'minor' | 'patch', body: string): Changeset => ({
  releases: { '@spa/contract': bump, '@spa/sdk': bump },
  body,
});
