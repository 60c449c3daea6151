export { acknowledgedIn, acknowledgementBlock, acknowledgementFile } from './acknowledgement.js';
export { type Bump, bumpBetween } from './bump.js';
export { judgePair, type PairInput, type PairVerdict } from './judge.js';
export { GROUP } from './pending.js';
export { RELEASES } from './release-files.js';
export { checkRepository, type CheckOptions, type RepositoryCheck } from './repository.js';
export { checkVersions, type VersionInput } from './versions.js';
export { releaseContract, type ReleaseResult, type ReleaseSteps } from './release.js';
