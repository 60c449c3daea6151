import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acknowledgementFile } from './acknowledgement.js';
import { RELEASES } from './release-files.js';
import { checkRepository } from './repository.js';

type Json = Record<string, unknown>;

/** The two steps of a release that other programs do: Changesets' `changeset version`, and `pnpm openapi`. */
export interface ReleaseSteps {
  changesetVersion: () => void;
  /** Writes docs/openapi.json at the version the packages now have. */
  regenerate: () => void;
}

export type ReleaseResult =
  | { outcome: 'nothing'; lines: string[] }
  | { outcome: 'refused'; lines: string[] }
  | { outcome: 'released'; version: string; lines: string[] };

/**
 * `pnpm version-packages`: the pending changesets checked against the release rules first, nothing written when
 * they fail; then the versions and changelogs, the regenerated document kept as the new release file, and a
 * major's acknowledgement copied from its changeset beside it. `generated` is the document the contract makes now.
 */
export async function releaseContract(root: string, generated: Json, steps: ReleaseSteps): Promise<ReleaseResult> {
  const check = await checkRepository(root, { generated, releasing: true });
  if (check.next === undefined) {
    return { outcome: 'nothing', lines: ['No pending changeset of @spa/contract or @spa/sdk: nothing to release.'] };
  }
  if (!check.ok) {
    return {
      outcome: 'refused',
      lines: [
        ...check.lines,
        '',
        `${check.current} -> ${check.next} refused by the release rules above; nothing was written.`,
      ],
    };
  }
  steps.changesetVersion();
  steps.regenerate();
  copyFileSync(join(root, 'docs/openapi.json'), join(root, RELEASES, `${check.next}.json`));
  if (check.acknowledged.length > 0) {
    writeFileSync(
      join(root, RELEASES, `${check.next}.breaking.md`),
      acknowledgementFile(check.next, check.current, check.acknowledged),
    );
  }
  const after = await checkRepository(root, {
    generated: { ...generated, info: { ...(generated.info as Json), version: check.next } },
  });
  if (!after.ok)
    return {
      outcome: 'refused',
      lines: [...after.lines, '', `${check.next} was written but does not pass the check above.`],
    };
  return {
    outcome: 'released',
    version: check.next,
    lines: [`Released ${check.next} in the tree: review and commit it (docs/releasing.md).`],
  };
}
