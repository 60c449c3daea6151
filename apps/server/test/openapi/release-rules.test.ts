import { describe, expect, it } from 'vitest';
import { acknowledgementBlock, checkRepository, type RepositoryCheck } from '../../src/openapi/release-check/index.js';
import { ISSUE_EDITS } from './contract-edits.js';
import { bothAt, documentAt, type Json, makeRepository } from './release-fixture.js';

const text = (check: RepositoryCheck) => check.lines.join('\n');

/** The document the contract would generate with `edit` made, against a repository released at 1.0.0. */
async function judge(edit: (document: Json) => void, fixture: Partial<Parameters<typeof makeRepository>[0]> = {}) {
  const generated = documentAt('1.0.0');
  edit(generated);
  const root = makeRepository({ version: '1.0.0', releases: { '1.0.0': documentAt('1.0.0') }, ...fixture });
  return checkRepository(root, { generated });
}

const addLoyaltyId = (document: Json) => {
  document.components.schemas.Booking.properties.loyalty_id = { type: 'string', nullable: true };
};
const removeBookingNumber = ISSUE_EDITS[0]!;

/** `pnpm openapi:breaking`'s judge of the generated document, on throwaway repositories with their own changesets. */
describe('the release rules of the contract', () => {
  it.each(ISSUE_EDITS.map((edit) => [edit.name, edit] as const))(
    'fails %s without a major, naming it and the major it needs',
    async (_name, edit) => {
      const check = await judge(edit.apply);
      expect(check.ok).toBe(false);
      for (const id of edit.ids(documentAt('1.0.0'))) expect(text(check)).toContain(`    ${id}\n`);
      expect(text(check)).toContain(
        'the contract changed since 1.0.0 was released without a new version: it needs a major.',
      );
      expect(text(check)).toContain('`pnpm changeset` (major for @spa/contract)');
    },
  );

  it('fails a breaking change under a minor changeset', async () => {
    const check = await judge(removeBookingNumber.apply, {
      changesets: { 'drop-number': bothAt('minor', 'Drops booking_number.') },
    });
    expect(check.contract?.ok, text(check)).toBe(false);
    expect(text(check)).toContain('these changes need a major version, but 1.1.0 is a minor.');
  });

  it('fails a breaking change with a major changeset but no acknowledgement, and prints the block to copy', async () => {
    const check = await judge(removeBookingNumber.apply, {
      changesets: { 'drop-number': bothAt('major', 'Drops booking_number.') },
    });
    expect(check.contract?.ok, text(check)).toBe(false);
    expect(text(check)).toContain(
      'FAIL: a major version alone does not acknowledge breaking changes: .changeset/drop-number.md must list each',
    );
    expect(text(check)).toContain(
      ['    ```breaking', '    response field removed: Booking.booking_number', '    ```'].join('\n'),
    );
  });

  it('passes a breaking change whose major changeset acknowledges it, and then asks for `pnpm version-packages`', async () => {
    const body = `Drops booking_number.\n\n${acknowledgementBlock(['response field removed: Booking.booking_number'])}`;
    const check = await judge(removeBookingNumber.apply, { changesets: { 'drop-number': bothAt('major', body) } });
    expect(check.contract?.ok, text(check)).toBe(true);
    expect(check.acknowledged).toEqual(['response field removed: Booking.booking_number']);
    expect(check.versions.join('\n')).toContain(
      'not yet versioned: .changeset/drop-number.md changes @spa/contract or @spa/sdk: run `pnpm version-packages`',
    );
    expect(check.ok).toBe(false);
  });

  it('fails an acknowledgement that misses a change or names one that did not happen', async () => {
    const body = `Two changes.\n\n${acknowledgementBlock(['response field removed: Booking.notes'])}`;
    const check = await judge(
      (document) => {
        removeBookingNumber.apply(document);
        ISSUE_EDITS[1]!.apply(document);
      },
      { changesets: { 'two-changes': bothAt('major', body) } },
    );
    expect(check.contract?.ok, text(check)).toBe(false);
    expect(text(check)).toContain(
      'FAIL: not acknowledged in .changeset/two-changes.md: response field removed: Booking.booking_number',
    );
    expect(text(check)).toContain(
      'FAIL: not acknowledged in .changeset/two-changes.md: request field made required: CreateBookingRequest.notes',
    );
    expect(text(check)).toContain(
      'FAIL: .changeset/two-changes.md acknowledges a change that did not happen: response field removed: Booking.notes',
    );
  });

  it('refuses an acknowledgement in a changeset that makes no major', async () => {
    const body = `Not a major.\n\n${acknowledgementBlock(['response field removed: Booking.booking_number'])}`;
    const check = await judge(() => {}, { changesets: { stray: bothAt('minor', body) } });
    expect(check.versions.join('\n')).toContain(
      '.changeset/stray.md acknowledges breaking changes but makes no major version.',
    );
  });

  it('passes an additive field with a minor changeset and fails it without one (or with a patch)', async () => {
    const withMinor = await judge(addLoyaltyId, { changesets: { loyalty: bothAt('minor', 'Adds loyalty_id.') } });
    expect(withMinor.contract?.ok, text(withMinor)).toBe(true);
    const without = await judge(addLoyaltyId);
    expect(without.contract?.ok).toBe(false);
    expect(text(without)).toContain(
      [
        '  1 additive change(s), each needs a minor version or more:',
        '    response field added: Booking.loyalty_id',
      ].join('\n'),
    );
    expect(text(without)).toContain(
      'FAIL: the contract changed since 1.0.0 was released without a new version: it needs a minor.',
    );
    const withPatch = await judge(addLoyaltyId, { changesets: { loyalty: bothAt('patch', 'Adds loyalty_id.') } });
    expect(text(withPatch)).toContain('FAIL: these changes need a minor version, but 1.0.1 is a patch.');
  });

  it('counts an SDK-only changeset as a release of both packages (one fixed group)', async () => {
    const check = await judge(addLoyaltyId, {
      changesets: { 'sdk-only': { releases: { '@spa/sdk': 'minor' }, body: 'SDK change.' } },
    });
    expect(check.next).toBe('1.1.0');
    expect(check.contract?.ok, text(check)).toBe(true);
  });

  it('passes a description change with no changeset, and the whole check with it', async () => {
    const check = await judge((document) => {
      document.components.schemas.Booking.description = 'A booking, said differently';
    });
    expect(check.ok, text(check)).toBe(true);
    expect(text(check)).toContain('no change of the contract (prose aside): no version needed');
  });
});

describe('the released documents, each against the one before it', () => {
  const changedAt = (version: string, edit: (document: Json) => void) => {
    const document = documentAt(version);
    edit(document);
    return document;
  };

  it('fails a minor release that carries a breaking change, naming both files and the change', async () => {
    const root = makeRepository({
      version: '1.1.0',
      releases: { '1.0.0': documentAt('1.0.0'), '1.1.0': changedAt('1.1.0', removeBookingNumber.apply) },
    });
    const check = await checkRepository(root, { generated: changedAt('1.1.0', removeBookingNumber.apply) });
    const [pair] = check.releases;
    expect(pair?.ok).toBe(false);
    expect(pair?.lines.join('\n')).toContain(
      'docs/openapi-releases/1.1.0.json against docs/openapi-releases/1.0.0.json (1.1.0, a minor):',
    );
    expect(pair?.lines.join('\n')).toContain('    response field removed: Booking.booking_number\n');
  });

  it('passes a major release with its .breaking.md and fails one without it', async () => {
    const releases = { '1.0.0': documentAt('1.0.0'), '2.0.0': changedAt('2.0.0', removeBookingNumber.apply) };
    const acknowledged = makeRepository({
      version: '2.0.0',
      releases,
      acknowledgements: {
        '2.0.0': `# Breaking changes of 2.0.0\n\n${acknowledgementBlock(['response field removed: Booking.booking_number'])}\n`,
      },
    });
    const generated = changedAt('2.0.0', removeBookingNumber.apply);
    const passing = await checkRepository(acknowledged, { generated });
    expect(passing.ok, text(passing)).toBe(true);
    const bare = await checkRepository(makeRepository({ version: '2.0.0', releases }), { generated });
    expect(bare.releases[0]?.ok).toBe(false);
    expect(text(bare)).toContain('docs/openapi-releases/2.0.0.breaking.md must list each of them');
  });
});
