import getReleasePlan from '@changesets/get-release-plan';
import { acknowledgedIn } from './acknowledgement.js';

/** The packages released together at one version (a Changesets fixed group); the document's `info.version` is theirs. */
export const GROUP = ['@spa/contract', '@spa/sdk'];

export interface Pending {
  /** The version the pending changesets make (undefined: none changes the group). */
  next: string | undefined;
  /** `.changeset/<name>.md` of each pending changeset of the group, and of those that make a major. */
  files: string[];
  majors: string[];
  /** The ids the `breaking` blocks of the pending changesets acknowledge. */
  acknowledged: string[];
  problems: string[];
}

/** The pending changesets, as `changeset version` would apply them (@changesets/get-release-plan, no git needed). */
export async function readPending(root: string): Promise<Pending> {
  const plan = await getReleasePlan(root);
  const next = plan.releases.find((release) => release.name === GROUP[0] && release.type !== 'none')?.newVersion;
  const touches = (changeset: (typeof plan.changesets)[number], major: boolean) =>
    changeset.releases.some((release) => GROUP.includes(release.name) && (!major || release.type === 'major'));
  const file = (changeset: { id: string }) => `.changeset/${changeset.id}.md`;
  const pending = plan.changesets.filter((changeset) => touches(changeset, false));
  const problems: string[] = [];
  const acknowledged: string[] = [];
  for (const changeset of pending) {
    const ids = acknowledgedIn(changeset.summary);
    if (ids.length > 0 && !touches(changeset, true))
      problems.push(`${file(changeset)} acknowledges breaking changes but makes no major version.`);
    acknowledged.push(...ids);
  }
  return {
    next,
    files: pending.map(file),
    majors: pending.filter((changeset) => touches(changeset, true)).map(file),
    acknowledged,
    problems,
  };
}
