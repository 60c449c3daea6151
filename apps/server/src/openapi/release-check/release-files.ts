import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { acknowledgedIn } from './acknowledgement.js';
import { bumpBetween, isVersion, sortVersions } from './bump.js';

type Json = Record<string, unknown>;

export const RELEASES = 'docs/openapi-releases';

export interface ReleaseFiles {
  /** The released versions, oldest first. */
  versions: string[];
  documents: Map<string, Json>;
  /** The ids each major's `<version>.breaking.md` acknowledges. */
  acknowledgements: Map<string, string[]>;
  problems: string[];
}

const ACKNOWLEDGEMENT = /^(.+)\.breaking\.md$/;

/** docs/openapi-releases/: `<version>.json` for each release, `<version>.breaking.md` beside each major's. */
export function readReleaseFiles(root: string): ReleaseFiles {
  const directory = join(root, RELEASES);
  const files = existsSync(directory) ? readdirSync(directory) : [];
  const problems: string[] = [];
  const versionOf = (file: string) =>
    file.endsWith('.json') && isVersion(file.slice(0, -5)) ? file.slice(0, -5) : undefined;
  const versions = sortVersions(files.map(versionOf).filter((version) => version !== undefined));
  const documents = new Map(
    versions.map((version) => [version, JSON.parse(readFileSync(join(directory, `${version}.json`), 'utf8')) as Json]),
  );
  for (const [version, document] of documents) {
    const label = (document.info as Json | undefined)?.version;
    if (label !== version)
      problems.push(
        `${RELEASES}/${version}.json has info.version ${String(label)}: a released document is labelled with its own version.`,
      );
  }
  const acknowledgements = new Map<string, string[]>();
  for (const file of files.filter((name) => versionOf(name) === undefined)) {
    const version = ACKNOWLEDGEMENT.exec(file)?.[1];
    const index = version === undefined ? -1 : versions.indexOf(version);
    if (version === undefined)
      problems.push(
        `${RELEASES}/${file} is not a released document (<version>.json) or an acknowledgement (<version>.breaking.md).`,
      );
    else if (index <= 0 || bumpBetween(versions[index - 1]!, version) !== 'major') {
      problems.push(`${RELEASES}/${file} acknowledges a release that is not a major after another released document.`);
    } else acknowledgements.set(version, acknowledgedIn(readFileSync(join(directory, file), 'utf8')));
  }
  return { versions, documents, acknowledgements, problems };
}
