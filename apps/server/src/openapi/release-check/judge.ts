import { type Change, diffContract } from '../contract-diff/index.js';
import { acknowledgementBlock } from './acknowledgement.js';
import { atLeast, type Bump, bumpBetween, neededBump } from './bump.js';

type Json = Record<string, unknown>;

export interface PairInput {
  /** The released document the comparison starts from, and its version. */
  before: { label: string; version: string; document: Json };
  /** The next document: a later release, or the one the contract generates now. */
  after: { label: string; document: Json };
  /** The version `after` is released as: the next release file's, or what the pending changesets make (undefined: none). */
  nextVersion: string | undefined;
  /** The ids the acknowledgement lists, or undefined when there is none. */
  acknowledged: string[] | undefined;
  /** Where the acknowledgement of this pair is (or goes): a changeset, or a release's .breaking.md. */
  acknowledgementPlace: string;
  /** What to do when the version does not cover the changes: the commands, for the generated document or a release. */
  advice: (needed: Bump) => string;
}

export interface PairVerdict {
  ok: boolean;
  changes: Change[];
  needed: Bump;
  bump: Bump;
  /** The report: one line per breaking change (and per additive change when they fail), then what to do. */
  lines: string[];
}

const MAX_PLACES = 6;

const places = (change: Change) =>
  change.where.length <= MAX_PLACES
    ? change.where.join(', ')
    : `${change.where.slice(0, MAX_PLACES).join(', ')} and ${change.where.length - MAX_PLACES} more`;

const describe = (bump: Bump, version: string | undefined) =>
  bump === 'none' ? 'no new version' : `${version}, a ${bump}`;

/**
 * The release rule for one step of the contract: breaking changes need a major and an acknowledgement that names
 * exactly them; additive changes need a minor or more; prose needs nothing.
 */
export function judgePair(input: PairInput): PairVerdict {
  const changes = diffContract(input.before.document, input.after.document);
  const breaking = changes.filter((change) => change.severity === 'breaking');
  const additive = changes.filter((change) => change.severity === 'additive');
  const needed = neededBump(changes);
  const bump = bumpBetween(input.before.version, input.nextVersion);
  const lines = [`${input.after.label} against ${input.before.label} (${describe(bump, input.nextVersion)}):`];
  const failures: string[] = [];

  if (breaking.length > 0) {
    lines.push(`  ${breaking.length} breaking change(s), each needs a major version and its acknowledgement:`);
    for (const change of breaking) lines.push(`    ${change.id}`, `      in ${places(change)}`);
  }
  if (additive.length > 0 && needed === 'minor' && !atLeast(bump, 'minor')) {
    lines.push(`  ${additive.length} additive change(s), each needs a minor version or more:`);
    for (const change of additive)
      lines.push(`    ${change.id}`, `      in ${places(change)}${change.rule ? ` (additive: ${change.rule})` : ''}`);
  } else if (additive.length > 0) {
    lines.push(
      `  ${additive.length} additive change(s), covered by ${describe(bump, input.nextVersion)}: ${summary(additive)}`,
    );
  }
  if (changes.length === 0) lines.push('  no change of the contract (prose aside): no version needed');

  if (!atLeast(bump, needed)) {
    failures.push(
      bump === 'none'
        ? `the contract changed since ${input.before.version} was released without a new version: it needs a ${needed}.`
        : `these changes need a ${needed} version, but ${input.nextVersion} is a ${bump}.`,
      input.advice(needed),
    );
  }
  if (breaking.length > 0 && bump === 'major') failures.push(...acknowledgementProblems(input, breaking));
  else if (breaking.length === 0 && (input.acknowledged ?? []).length > 0) {
    for (const id of input.acknowledged!)
      failures.push(`${input.acknowledgementPlace} acknowledges a change that did not happen: ${id}`);
  }
  if (breaking.length > 0 && failures.length > 0) {
    lines.push(`  The acknowledgement, to copy into ${input.acknowledgementPlace} once the change is meant:`);
    lines.push(
      ...acknowledgementBlock(breaking.map((change) => change.id))
        .split('\n')
        .map((line) => `    ${line}`),
    );
  }
  lines.push(...failures.map((failure) => `  FAIL: ${failure}`));
  if (failures.length === 0 && changes.length > 0) lines.push(`  ok: ${describe(bump, input.nextVersion)} covers them`);
  return { ok: failures.length === 0, changes, needed, bump, lines };
}

function acknowledgementProblems(input: PairInput, breaking: Change[]): string[] {
  const ids = breaking.map((change) => change.id);
  if (input.acknowledged === undefined || input.acknowledged.length === 0) {
    return [
      `a major version alone does not acknowledge breaking changes: ${input.acknowledgementPlace} must list each of ` +
        `them in a \`\`\`breaking block (above), reviewed with the change.`,
    ];
  }
  return [
    ...ids
      .filter((id) => !input.acknowledged!.includes(id))
      .map((id) => `not acknowledged in ${input.acknowledgementPlace}: ${id}`),
    ...input.acknowledged
      .filter((id) => !ids.includes(id))
      .map((id) => `${input.acknowledgementPlace} acknowledges a change that did not happen: ${id}`),
  ];
}

/** `222 response header added, 15 response field narrowed, ...`: additive changes that pass, by kind. */
function summary(changes: Change[]): string {
  const counts = new Map<string, number>();
  for (const change of changes) {
    const kind = change.id.slice(0, change.id.indexOf(':'));
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([kind, count]) => `${count} ${kind}`)
    .join(', ');
}
