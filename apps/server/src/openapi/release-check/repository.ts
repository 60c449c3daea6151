import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import getReleasePlan from '@changesets/get-release-plan';
import { acknowledgedIn } from './acknowledgement.js';
import { type Bump, bumpBetween, isVersion, sortVersions } from './bump.js';
import { judgePair, type PairVerdict } from './judge.js';
import { checkVersions } from './versions.js';

type Json = Record<string, unknown>;

/** The packages released together at one version; the document's `info.version` is theirs. */
export const GROUP = ['@spa/contract', '@spa/sdk'];
export const RELEASES = 'docs/openapi-releases';
const PACKAGES = [
  { name: '@spa/contract', dir: 'packages/contract' },
  { name: '@spa/sdk', dir: 'packages/sdk' },
];

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

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Json;
const topOf = (changelog: string) => /^## (\S+)/m.exec(changelog)?.[1];

/** Every check of `pnpm openapi:breaking` on the repository at `root`; reads files only (no git). */
export async function checkRepository(root: string, options: CheckOptions): Promise<RepositoryCheck> {
  const problems: string[] = [];
  const packages = PACKAGES.map(({ name, dir }) => ({
    name,
    dir,
    version: String(readJson(join(root, dir, 'package.json')).version),
  }));
  const current = packages[0]!.version;

  const plan = await getReleasePlan(root);
  const next = plan.releases.find((release) => release.name === GROUP[0] && release.type !== 'none')?.newVersion;
  const pending = plan.changesets.filter((changeset) =>
    changeset.releases.some((release) => GROUP.includes(release.name)),
  );
  const majors = pending.filter((changeset) =>
    changeset.releases.some((release) => GROUP.includes(release.name) && release.type === 'major'),
  );
  const acknowledged: string[] = [];
  for (const changeset of pending) {
    const ids = acknowledgedIn(changeset.summary);
    if (ids.length > 0 && !majors.includes(changeset))
      problems.push(`.changeset/${changeset.id}.md acknowledges breaking changes but makes no major version.`);
    acknowledged.push(...ids);
  }

  const directory = join(root, RELEASES);
  const files = existsSync(directory) ? readdirSync(directory) : [];
  const releases = sortVersions(
    files
      .filter((file) => file.endsWith('.json'))
      .map((file) => file.slice(0, -5))
      .filter(isVersion),
  );
  for (const file of files.filter(
    (name) => !(name.endsWith('.json') && isVersion(name.slice(0, -5))) && !/^(.+)\.breaking\.md$/.test(name),
  )) {
    problems.push(
      `${RELEASES}/${file} is not a released document (<version>.json) or an acknowledgement (<version>.breaking.md).`,
    );
  }
  const released = new Map(releases.map((version) => [version, readJson(join(directory, `${version}.json`))]));
  for (const [version, document] of released) {
    const label = (document.info as Json | undefined)?.version;
    if (label !== version)
      problems.push(
        `${RELEASES}/${version}.json has info.version ${String(label)}: a released document is labelled with its own version.`,
      );
  }

  // (a) the document the contract generates now, against the release of the current version.
  const baseline = released.has(current) ? current : releases.at(-1);
  const verdicts: PairVerdict[] = [];
  if (baseline !== undefined) {
    const place =
      majors.length > 0
        ? majors.map((changeset) => `.changeset/${changeset.id}.md`).join(' or ')
        : 'a major changeset (`pnpm changeset`)';
    verdicts.push(
      judgePair({
        before: { label: `${RELEASES}/${baseline}.json`, version: baseline, document: released.get(baseline)! },
        after: { label: 'the document the contract generates now', document: options.generated },
        nextVersion: next,
        acknowledged: acknowledged.length > 0 ? acknowledged : undefined,
        acknowledgementPlace: place,
        advice: adviceForChanges,
      }),
    );
    const written = join(root, 'docs/openapi.json');
    if (existsSync(written) && baseline === current) {
      const same = readFileSync(written, 'utf8') === readFileSync(join(directory, `${baseline}.json`), 'utf8');
      verdicts[0]!.lines.push(
        same
          ? `  docs/openapi.json is ${RELEASES}/${baseline}.json byte for byte.`
          : `  docs/openapi.json differs from ${RELEASES}/${baseline}.json: ${verdicts[0]!.changes.length === 0 ? 'in prose only (descriptions, examples), which the next release carries' : 'as above'}.`,
      );
    }
  }

  // (b) each released document against the one before it, with the version step between them.
  for (let index = 1; index < releases.length; index += 1) {
    const from = releases[index - 1]!;
    const to = releases[index]!;
    const file = join(directory, `${to}.breaking.md`);
    verdicts.push(
      judgePair({
        before: { label: `${RELEASES}/${from}.json`, version: from, document: released.get(from)! },
        after: { label: `${RELEASES}/${to}.json`, document: released.get(to)! },
        nextVersion: to,
        acknowledged: existsSync(file) ? acknowledgedIn(readFileSync(file, 'utf8')) : undefined,
        acknowledgementPlace: `${RELEASES}/${to}.breaking.md`,
        advice: () => `released documents never change: restore them from git (\`git checkout -- ${RELEASES}\`).`,
      }),
    );
  }
  for (const name of files.filter((file) => file.endsWith('.breaking.md'))) {
    const version = name.slice(0, -'.breaking.md'.length);
    const index = releases.indexOf(version);
    if (index <= 0 || bumpBetween(releases[index - 1]!, version) !== 'major') {
      problems.push(`${RELEASES}/${name} acknowledges a release that is not a major after another released document.`);
    }
  }

  const written = join(root, 'docs/openapi.json');
  const prose = ['README.md', 'docs/api.md', ...guides(root), ...PACKAGES.map(({ dir }) => `${dir}/README.md`)].filter(
    (file) => existsSync(join(root, file)),
  );
  problems.push(
    ...checkVersions({
      packages: packages.map(({ dir, version }) => ({ file: `${dir}/package.json`, version })),
      documents: [
        {
          file: 'docs/openapi.json',
          version: existsSync(written)
            ? ((readJson(written).info as Json | undefined)?.version as string | undefined)
            : undefined,
        },
        {
          file: 'the generated document',
          version: (options.generated.info as Json | undefined)?.version as string | undefined,
        },
      ],
      releases,
      releaseDirectory: RELEASES,
      changelogs: PACKAGES.map(({ dir }) => {
        const file = join(root, dir, 'CHANGELOG.md');
        return { file: `${dir}/CHANGELOG.md`, top: existsSync(file) ? topOf(readFileSync(file, 'utf8')) : undefined };
      }),
      pending: options.releasing ? [] : pending.map((changeset) => `.changeset/${changeset.id}.md`),
      prose: prose.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') })),
      proseVersion: options.releasing ? (next ?? current) : current,
    }),
  );

  const lines = verdicts.flatMap((verdict) => ['', ...verdict.lines]);
  lines.push(
    '',
    problems.length === 0 ? 'Versions agree.' : 'Versions:',
    ...problems.map((problem) => `  FAIL: ${problem}`),
  );
  const ok = problems.length === 0 && verdicts.every((verdict) => verdict.ok);
  const contract = baseline === undefined ? undefined : verdicts[0];
  return {
    ok,
    contract,
    releases: contract ? verdicts.slice(1) : verdicts,
    versions: problems,
    lines,
    current,
    next,
    acknowledged,
  };
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
