import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bump } from './bump.js';
import { judgePair, type PairVerdict } from './judge.js';
import { readPending } from './pending.js';
import { readReleaseFiles, RELEASES } from './release-files.js';
import { checkVersions } from './versions.js';

type Json = Record<string, unknown>;

const PACKAGES = ['packages/contract', 'packages/sdk'];

export interface RepositoryCheck {
  ok: boolean;
  /** (a) The document the contract generates now against the release of the current version. */
  contract: PairVerdict | undefined;
  /** (b) Each released document against the one before it. */
  releases: PairVerdict[];
  /** The version agreement's problems (each names its files). */
  versions: string[];
  /** The report, ready to print. */
  lines: string[];
  /** The packages' version now, and the one the pending changesets make (undefined: nothing pending). */
  current: string;
  next: string | undefined;
  /** The ids the pending major changesets acknowledge. */
  acknowledged: string[];
}

export interface CheckOptions {
  /** The document the contract generates now (buildOpenApiDocument()). */
  generated: Json;
  /** For `pnpm version-packages`: pending changesets are what is being released, and prose may name the next version. */
  releasing?: boolean;
}

const read = (root: string, file: string) =>
  existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined;
const versionOf = (document: Json | undefined) => (document?.info as Json | undefined)?.version as string | undefined;

/** Every check of `pnpm openapi:breaking` on the repository at `root`; it reads files only (no git). */
export async function checkRepository(root: string, options: CheckOptions): Promise<RepositoryCheck> {
  const packages = PACKAGES.map((dir) => ({
    file: `${dir}/package.json`,
    version: String((JSON.parse(read(root, `${dir}/package.json`)!) as Json).version),
  }));
  const current = packages[0]!.version;
  const pending = await readPending(root);
  const released = readReleaseFiles(root);
  const written = read(root, 'docs/openapi.json');

  const baseline = released.documents.has(current) ? current : released.versions.at(-1);
  const contract =
    baseline === undefined
      ? undefined
      : judgePair({
          before: {
            label: `${RELEASES}/${baseline}.json`,
            version: baseline,
            document: released.documents.get(baseline)!,
          },
          after: { label: 'the document the contract generates now', document: options.generated },
          nextVersion: pending.next,
          acknowledged: pending.acknowledged.length > 0 ? pending.acknowledged : undefined,
          acknowledgementPlace:
            pending.majors.length > 0 ? pending.majors.join(' or ') : 'a major changeset (`pnpm changeset`)',
          advice: adviceForChanges,
        });
  if (contract && written !== undefined && baseline === current) {
    const same = written === read(root, `${RELEASES}/${baseline}.json`);
    const prose = contract.changes.length === 0;
    contract.lines.splice(
      1,
      0,
      same
        ? `  docs/openapi.json is ${RELEASES}/${baseline}.json byte for byte.`
        : `  docs/openapi.json differs from ${RELEASES}/${baseline}.json${prose ? ' in prose only (descriptions, examples), which the next release carries' : ''}.`,
    );
  }

  const releases = released.versions.slice(1).map((to, index) => {
    const from = released.versions[index]!;
    return judgePair({
      before: { label: `${RELEASES}/${from}.json`, version: from, document: released.documents.get(from)! },
      after: { label: `${RELEASES}/${to}.json`, document: released.documents.get(to)! },
      nextVersion: to,
      acknowledged: released.acknowledgements.get(to),
      acknowledgementPlace: `${RELEASES}/${to}.breaking.md`,
      advice: () => `released documents never change: restore them from git (\`git checkout -- ${RELEASES}\`).`,
    });
  });

  const prose = ['README.md', 'docs/api.md', ...guides(root), ...PACKAGES.map((dir) => `${dir}/README.md`)];
  const versions = [
    ...pending.problems,
    ...released.problems,
    ...checkVersions({
      packages,
      documents: [
        {
          file: 'docs/openapi.json',
          version: written === undefined ? undefined : versionOf(JSON.parse(written) as Json),
        },
        { file: 'the generated document', version: versionOf(options.generated) },
      ],
      releases: released.versions,
      releaseDirectory: RELEASES,
      changelogs: PACKAGES.map((dir) => ({
        file: `${dir}/CHANGELOG.md`,
        top: /^## (\S+)/m.exec(read(root, `${dir}/CHANGELOG.md`) ?? '')?.[1],
      })),
      pending: options.releasing ? [] : pending.files,
      prose: prose.flatMap((file) => {
        const text = read(root, file);
        return text === undefined ? [] : [{ file, text }];
      }),
      proseVersion: options.releasing ? (pending.next ?? current) : current,
    }),
  ];

  const verdicts = contract ? [contract, ...releases] : releases;
  const lines = verdicts.flatMap((verdict) => ['', ...verdict.lines]);
  lines.push(
    '',
    versions.length === 0 ? 'Versions agree.' : 'Versions:',
    ...versions.map((problem) => `  FAIL: ${problem}`),
  );
  const ok = versions.length === 0 && verdicts.every((verdict) => verdict.ok);
  return { ok, contract, releases, versions, lines, current, next: pending.next, acknowledged: pending.acknowledged };
}

const guides = (root: string) => {
  const directory = join(root, 'docs/guides');
  return existsSync(directory)
    ? readdirSync(directory)
        .filter((file) => file.endsWith('.md'))
        .map((file) => `docs/guides/${file}`)
    : [];
};

function adviceForChanges(needed: Bump): string {
  return needed === 'major'
    ? 'Make the change compatible, or release it as a major: `pnpm changeset` (major for @spa/contract), paste the ' +
        'acknowledgement block into that changeset, review it, then `pnpm version-packages`, and commit all of it.'
    : 'Add a changeset: `pnpm changeset` (minor for @spa/contract), then `pnpm version-packages`, and commit all of it.';
}
