import { describe, expect, it } from 'vitest';
import { checkRepository } from '../../src/openapi/release-check/index.js';
import { bothAt, documentAt, makeRepository, repositoryRoot } from './release-fixture.js';

const versionsOf = async (fixture: Parameters<typeof makeRepository>[0], generatedVersion = fixture.version) =>
  (await checkRepository(makeRepository(fixture), { generated: documentAt(generatedVersion) })).versions.join('\n');

/** `pnpm openapi:breaking`'s version agreement: one version on every label, and no label over two documents. */
describe('the version labels of the contract', () => {
  it('agree on a released tree', async () => {
    const root = makeRepository({
      version: '1.1.0',
      releases: { '1.0.0': documentAt('1.0.0'), '1.1.0': documentAt('1.1.0') },
    });
    const check = await checkRepository(root, { generated: documentAt('1.1.0') });
    expect(check.ok, check.lines.join('\n')).toBe(true);
    expect(check.lines.join('\n')).toContain('docs/openapi.json is docs/openapi-releases/1.1.0.json byte for byte.');
  });

  it('fail when the packages, the document, the newest release or a changelog say another version, naming the files', async () => {
    const releases = { '1.0.0': documentAt('1.0.0') };
    expect(await versionsOf({ version: '1.0.0', sdkVersion: '1.1.0', releases })).toContain(
      'packages/contract/package.json is 1.0.0 but packages/sdk/package.json is 1.1.0',
    );
    expect(await versionsOf({ version: '1.0.0', releases, document: documentAt('0.9.0') })).toContain(
      'docs/openapi.json has info.version 0.9.0 but packages/contract/package.json is 1.0.0: run `pnpm openapi`.',
    );
    expect(await versionsOf({ version: '1.1.0', releases, document: documentAt('1.1.0') })).toContain(
      'the newest released document is docs/openapi-releases/1.0.0.json but packages/contract/package.json is 1.1.0',
    );
    expect(await versionsOf({ version: '1.0.0', releases, changelogTop: '0.9.0' })).toContain(
      'packages/contract/CHANGELOG.md begins with ## 0.9.0 but packages/contract/package.json is 1.0.0',
    );
    expect(await versionsOf({ version: '1.0.0', releases: { '1.0.0': documentAt('1.0.1') } })).toContain(
      'docs/openapi-releases/1.0.0.json has info.version 1.0.1',
    );
  });

  it('fail an acknowledgement beside a release that is not a major, or a stray file among the released documents', async () => {
    const versions = await versionsOf({
      version: '1.1.0',
      releases: { '1.0.0': documentAt('1.0.0'), '1.1.0': documentAt('1.1.0') },
      acknowledgements: { '1.1.0': '```breaking\n```\n' },
    });
    expect(versions).toContain(
      'docs/openapi-releases/1.1.0.breaking.md acknowledges a release that is not a major after another released document.',
    );
  });

  it('report a pending changeset of the contract or the SDK as not yet versioned', async () => {
    const versions = await versionsOf({
      version: '1.0.0',
      releases: { '1.0.0': documentAt('1.0.0') },
      changesets: { 'new-field': bothAt('minor', 'Adds a field.') },
    });
    expect(versions).toContain(
      'not yet versioned: .changeset/new-field.md changes @spa/contract or @spa/sdk: run `pnpm version-packages`',
    );
  });

  it('fail prose that names a version above the current one, with its file and line', async () => {
    const apiMd = '# API\n\n`mode` (added in 2.0) tells the shapes apart.\n`status` (since 1.0) is open.\n';
    const versions = await versionsOf({ version: '1.0.0', releases: { '1.0.0': documentAt('1.0.0') }, apiMd });
    expect(versions).toContain(
      'docs/api.md:3 says "added in 2.0" but the newest version is 1.0.0: 2.0 does not exist yet.',
    );
    expect(versions).not.toContain('docs/api.md:4');
  });

  it("hold for every consecutive pair of this repository's released documents", async () => {
    const check = await checkRepository(repositoryRoot, { generated: documentAt('1.0.0') });
    for (const pair of check.releases) expect(pair.ok, pair.lines.join('\n')).toBe(true);
  });
});
