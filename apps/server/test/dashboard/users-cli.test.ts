import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contextHost } from '../../src/cli/command-host.js';
import { runCli } from '../../src/cli/program.js';
import { makeOrganisation, makeVenue } from '../support/factories.js';
import { setup, TEST_PUBLIC_URL } from '../support/test-app.js';
import { auditRows, dashboardOf } from './dashboard-support.js';

describe('pnpm spa users (invite, list, remove)', () => {
  const ctx = setup({ now: '2026-11-22T08:00:00Z' });
  const dir = mkdtempSync(join(tmpdir(), 'spa-users-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function spa(...argv: string[]) {
    const run = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (run.stdout += t), stderr: (t: string) => (run.stderr += t) };
    const host = contextHost(
      { db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL },
      { cwd: dir, io, clock: ctx.clock },
    );
    return { code: await runCli(argv, host), ...run };
  }

  it('invites the first admin, who accepts, signs in, and is listed; removal ends their sessions', async () => {
    const org = await makeOrganisation(ctx.db);
    const venue = await makeVenue(ctx.db, org.id);
    const invite = await spa(
      'users',
      'invite',
      '--org',
      org.slug,
      '--email',
      'First.Admin@Example.com',
      '--role',
      'admin',
    );
    expect(invite).toMatchObject({ code: 0, stderr: '' });
    const url = /(http:\/\/localhost\/dashboard\/invitations\/\S+)/.exec(invite.stdout)![1]!;
    expect(invite.stdout).toContain(`Invited first.admin@example.com as admin of ${org.slug}`);
    expect(invite.stdout).toContain('valid until 2026-11-25T08:00:00Z');

    const dash = dashboardOf(ctx.app);
    const token = url.split('/').pop()!;
    expect((await dash.post(`/invitations/${token}/accept`, { password: 'the first admin password' })).status).toBe(
      201,
    );
    const session = await dash.signIn('first.admin@example.com', 'the first admin password');

    const desk = await spa(
      'users',
      'invite',
      '--org',
      org.slug,
      '--email',
      'desk@example.com',
      '--role',
      'desk',
      '--venue',
      venue.slug,
    );
    expect(desk).toMatchObject({ code: 0, stderr: '' });
    expect(desk.stdout).toContain(`as desk at ${venue.slug}`);

    const list = await spa('users', 'list', '--org', org.slug);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/EMAIL\s+ROLE\s+VENUES\s+CREATED\s+LAST SIGN-IN/);
    expect(list.stdout).toMatch(/first\.admin@example\.com\s+admin\s+all\s+2026-11-22 08:00\s+2026-11-22 08:00/);

    const removed = await spa('users', 'remove', '--email', 'FIRST.ADMIN@example.com');
    expect(removed).toEqual({ code: 0, stdout: 'Removed first.admin@example.com; 1 session ended.\n', stderr: '' });
    expect((await dash.get('/session', session)).status).toBe(401);

    const rows = await auditRows(ctx.db, org.id);
    const byOperator = rows.filter((r) => r.actor_type === 'operator').map((r) => r.action);
    expect(byOperator.sort()).toEqual(['person.invited', 'person.invited', 'person.removed']);
    expect(
      rows.filter((r) => r.actor_type === 'operator').every((r) => r.ip === null && r.actor_person_id === null),
    ).toBe(true);
  });

  it('refuses with exit 1 and a sentence: unknown organisation, venue or email, taken email, desk without venue', async () => {
    const org = await makeOrganisation(ctx.db);
    const cases: [string[], string][] = [
      [
        ['users', 'invite', '--org', 'no-such-org', '--email', 'a@example.com', '--role', 'admin'],
        'No organisation with slug no-such-org\n',
      ],
      [
        ['users', 'invite', '--org', org.slug, '--email', 'a@example.com', '--role', 'desk'],
        'A desk person needs at least one --venue\n',
      ],
      [
        ['users', 'invite', '--org', org.slug, '--email', 'a@example.com', '--role', 'desk', '--venue', 'nowhere'],
        `No venue nowhere in organisation ${org.slug}\n`,
      ],
      [['users', 'remove', '--email', 'nobody@example.com'], 'No person with email nobody@example.com\n'],
      [['users', 'list', '--org', 'no-such-org'], 'No organisation with slug no-such-org\n'],
    ];
    for (const [argv, stderr] of cases) expect(await spa(...argv)).toEqual({ code: 1, stdout: '', stderr });
    expect(
      (await spa('users', 'invite', '--org', org.slug, '--email', 'taken@example.com', '--role', 'admin')).code,
    ).toBe(0);
    // A pending invitation is no person yet: inviting again replaces it. Once accepted, the email is taken.
    const again = await spa('users', 'invite', '--org', org.slug, '--email', 'taken@example.com', '--role', 'admin');
    const token = /invitations\/(\S+)/.exec(again.stdout)![1]!;
    await dashboardOf(ctx.app).post(`/invitations/${token}/accept`, { password: 'a long enough password' }).expect(201);
    expect(await spa('users', 'invite', '--org', org.slug, '--email', 'taken@example.com', '--role', 'admin')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'A person with this email already exists\n',
    });
    // Usage errors: exit 2.
    expect((await spa('users', 'invite', '--org', org.slug, '--email', 'not-an-email', '--role', 'admin')).code).toBe(
      2,
    );
    expect((await spa('users', 'invite', '--org', org.slug, '--email', 'a@example.com', '--role', 'owner')).code).toBe(
      2,
    );
  });
});
