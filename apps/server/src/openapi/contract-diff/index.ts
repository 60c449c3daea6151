export type { Change, Severity } from './change-log.js';
export { diffContract } from './compare-document.js';
export { BREAKING_RULES } from './breaking-rules.js';
