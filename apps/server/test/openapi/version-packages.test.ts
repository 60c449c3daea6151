import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  acknowledgementBlock,
  checkRepository,
  releaseContract,
  type ReleaseSteps,
} from '../../src/openapi/release-check/index.js';
import { serializeDocument } from '../../src/openapi/serialize.js';
import { ISSUE_EDITS } from './contract-edits.js';
import { bothAt, documentAt, type Json, makeRepository, read, repositoryRoot } from './release-fixture.js';

/** The real `changeset version` in the throwaway repository, and a `pnpm openapi` that writes `next` at its version. */
const steps = (root: string, next: Json): ReleaseSteps => ({
  changesetVersion: () => {
    const result = spawnSync(join(repositoryRoot, 'node_modules/.bin/changeset'), ['version'], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`changeset version failed: ${result.stderr}`);
  },
  regenerate: () => {
    const version = (JSON.parse(read(root, 'packages/contract/package.json')) as { version: string }).version;
    writeFileSync(join(root, 'docs/openapi.json'), serializeDocument({ ...next, info: { ...next.info, version } }));
  },
});

const withEdit = (edit: (document: Json) => void) => {
  const document = documentAt('1.0.0');
  edit(document);
  return document;
};
const addLoyaltyId = (document: Json) => {
  document.components.schemas.Booking.properties.loyalty_id = { type: 'string', nullable: true };
};

/** `pnpm version-packages`: the one release step, on throwaway repositories. */
describe('releasing the contract', () => {
  it('releases a minor: versions, changelogs, docs/openapi.json and its release file agree, and the check passes', async () => {
    const root = makeRepository({
      version: '1.0.0',
      releases: { '1.0.0': documentAt('1.0.0') },
      changesets: { loyalty: bothAt('minor', 'Adds loyalty_id.') },
    });
    const generated = withEdit(addLoyaltyId);
    const result = await releaseContract(root, generated, steps(root, generated));
    expect(result.outcome, result.lines.join('\n')).toBe('released');
    for (const file of ['packages/contract/package.json', 'packages/sdk/package.json'])
      expect(JSON.parse(read(root, file)).version).toBe('1.1.0');
    for (const file of ['packages/contract/CHANGELOG.md', 'packages/sdk/CHANGELOG.md'])
      expect(read(root, file)).toMatch(/^## 1\.1\.0$/m);
    expect(read(root, 'docs/openapi-releases/1.1.0.json')).toBe(read(root, 'docs/openapi.json'));
    expect(existsSync(join(root, 'docs/openapi-releases/1.1.0.breaking.md'))).toBe(false);
    const after = await checkRepository(root, {
      generated: { ...generated, info: { ...generated.info, version: '1.1.0' } },
    });
    expect(after.ok, after.lines.join('\n')).toBe(true);
  });

  it('refuses a major without its acknowledgement and writes nothing', async () => {
    const root = makeRepository({
      version: '1.0.0',
      releases: { '1.0.0': documentAt('1.0.0') },
      changesets: { drop: bothAt('major', 'Drops booking_number.') },
    });
    const before = read(root, 'packages/contract/package.json');
    const generated = withEdit(ISSUE_EDITS[0]!.apply);
    const result = await releaseContract(root, generated, steps(root, generated));
    expect(result.outcome).toBe('refused');
    expect(result.lines.join('\n')).toContain(
      '1.0.0 -> 2.0.0 refused by the release rules above; nothing was written.',
    );
    expect(read(root, 'packages/contract/package.json')).toBe(before);
    expect(existsSync(join(root, '.changeset/drop.md'))).toBe(true);
    expect(existsSync(join(root, 'docs/openapi-releases/2.0.0.json'))).toBe(false);
  });

  it('releases an acknowledged major and keeps the acknowledgement beside its document', async () => {
    const ids = ['response field removed: Booking.booking_number'];
    const root = makeRepository({
      version: '1.0.0',
      releases: { '1.0.0': documentAt('1.0.0') },
      changesets: { drop: bothAt('major', `Drops booking_number.\n\n${acknowledgementBlock(ids)}`) },
      apiMd: '`booking_number` is gone since 2.0.\n',
    });
    const generated = withEdit(ISSUE_EDITS[0]!.apply);
    const result = await releaseContract(root, generated, steps(root, generated));
    expect(result.outcome, result.lines.join('\n')).toBe('released');
    expect(read(root, 'docs/openapi-releases/2.0.0.breaking.md')).toContain(acknowledgementBlock(ids));
    expect(JSON.parse(readFileSync(join(root, 'docs/openapi-releases/2.0.0.json'), 'utf8')).info.version).toBe('2.0.0');
  });

  it('has nothing to do without a pending changeset of the contract or the SDK', async () => {
    const root = makeRepository({ version: '1.0.0', releases: { '1.0.0': documentAt('1.0.0') } });
    const result = await releaseContract(root, documentAt('1.0.0'), steps(root, documentAt('1.0.0')));
    expect(result.outcome).toBe('nothing');
  });
});
