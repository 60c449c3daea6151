import { above, coerce } from './bump.js';

/** Where each version label of a release is read from, and what it says. */
export interface VersionInput {
  /** `packages/contract/package.json` and `packages/sdk/package.json` with their versions. */
  packages: { file: string; version: string }[];
  /** docs/openapi.json's `info.version`, and the one the contract generates now when known. */
  documents: { file: string; version: string | undefined }[];
  /** The release files' versions, oldest first (docs/openapi-releases/<version>.json). */
  releases: string[];
  releaseDirectory: string;
  /** Each CHANGELOG.md and its first `## x.y.z` heading. */
  changelogs: { file: string; top: string | undefined }[];
  /** Pending changesets that change @spa/contract or @spa/sdk. */
  pending: string[];
  /** Prose that may name a version (`since 2.1`, `added in 2.0`). */
  prose: { file: string; text: string }[];
  /** The version prose may name: the current one, or the one being released. */
  proseVersion?: string;
}

const SINCE =
  /\b(?:since|added in|new in|as of|introduced in|available from)\s+(?:version\s+|v)?(\d+\.\d+(?:\.\d+)?)\b/gi;

/**
 * Every label of the contract's version agrees: both packages, the document's `info.version`, the newest released
 * document, both changelogs' newest entries; nothing changes the packages without a release; no prose promises a
 * version that does not exist yet. Each problem names its files and the command that fixes it.
 */
export function checkVersions(input: VersionInput): string[] {
  const problems: string[] = [];
  const [first, ...others] = input.packages;
  const version = first!.version;
  for (const other of others) {
    if (other.version !== version)
      problems.push(
        `${first!.file} is ${version} but ${other.file} is ${other.version}: both are released together (a Changesets fixed group).`,
      );
  }
  for (const document of input.documents) {
    if (document.version !== version)
      problems.push(
        `${document.file} has info.version ${document.version ?? 'missing'} but ${first!.file} is ${version}: run \`pnpm openapi\`.`,
      );
  }
  const newest = input.releases.at(-1);
  if (newest === undefined)
    problems.push(`${input.releaseDirectory} has no released document: ${version} was never released.`);
  else if (newest !== version) {
    problems.push(
      `the newest released document is ${input.releaseDirectory}/${newest}.json but ${first!.file} is ${version}: ` +
        'versions move only through `pnpm version-packages`, which writes both.',
    );
  }
  for (const changelog of input.changelogs) {
    if (changelog.top !== version)
      problems.push(
        `${changelog.file} begins with ## ${changelog.top ?? '(no version)'} but ${first!.file} is ${version}: \`pnpm version-packages\` writes both.`,
      );
  }
  if (input.pending.length > 0) {
    problems.push(
      `not yet versioned: ${input.pending.join(', ')} change${input.pending.length === 1 ? 's' : ''} @spa/contract or @spa/sdk: ` +
        'run `pnpm version-packages` and commit what it writes, so that no version label covers two documents.',
    );
  }
  const current = input.proseVersion ?? version;
  for (const { file, text } of input.prose) {
    text.split('\n').forEach((line, index) => {
      for (const match of line.matchAll(SINCE)) {
        const named = coerce(match[1]!);
        if (named && above(named, current)) {
          problems.push(
            `${file}:${index + 1} says "${match[0]}" but the newest version is ${current}: ${match[1]} does not exist yet.`,
          );
        }
      }
    });
  }
  return problems;
}
