import semver from 'semver';
import type { Change } from '../contract-diff/index.js';

export type Bump = 'none' | 'patch' | 'minor' | 'major';

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

export const atLeast = (bump: Bump, needed: Bump) => RANK[bump] >= RANK[needed];

/** The version move from one release to the next (`to` must be above `from`; pre-releases are not used here). */
export function bumpBetween(from: string, to: string | undefined): Bump {
  if (to === undefined || semver.eq(from, to)) return 'none';
  if (!semver.gt(to, from)) throw new Error(`${to} is not above ${from}`);
  const diff = semver.diff(from, to);
  return diff === 'major' || diff === 'minor' || diff === 'patch' ? diff : 'major';
}

/** The smallest move that may carry these changes. */
export function neededBump(changes: Change[]): Bump {
  if (changes.some((change) => change.severity === 'breaking')) return 'major';
  return changes.length > 0 ? 'minor' : 'none';
}

export const sortVersions = (versions: string[]) => [...versions].sort(semver.compare);

export const isVersion = (value: string) => semver.valid(value) === value && semver.prerelease(value) === null;

/** `2.0` or `2.0.0` in prose, as semver: `2.0.0`. */
export const coerce = (value: string) => semver.coerce(value)?.version;

export const above = (version: string, other: string) => semver.gt(version, other);
