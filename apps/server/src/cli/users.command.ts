import { isUuid } from '@spa/contract';
import { Email, Role } from '@spa/contract/dashboard';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { OPERATOR } from '../audit/record-audit.js';
import { findPersonForSignIn, resolveVenueRefs } from '../dashboard/people.repository.js';
import {
  invitePerson,
  listPendingInvitations,
  listUsers,
  removePerson,
  revokeInvitation,
} from '../dashboard/people.service.js';
import { DashboardError } from '../errors/dashboard-errors.js';
import { OperatorError } from '../errors/operator-error.js';
import { findOrganisationBySlug } from '../keys/keys.repository.js';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';

/** The CLI has no client address or user agent to record. */
const NO_ORIGIN = { ip: null, userAgent: null };

const email = (value: string) => {
  const parsed = Email.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(parsed.error.issues[0]?.message ?? 'must be an email address');
  return parsed.data;
};
const collect = (value: string, previous: string[] = []) => [...previous, value];
const toMinute = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '-');

export function registerUsers(program: Command, host: CommandHost): void {
  const users = program
    .command('users')
    .description('manage the people who sign in to the dashboard (invitation URLs are valid 72 h, single use)');

  users
    .command('invite')
    .description('invite a person to an organisation and print their invitation URL')
    .requiredOption('--org <slug>', 'organisation slug')
    .requiredOption('--email <email>', 'their email address', email)
    .addOption(
      new Option('--role <role>', 'admin: the whole organisation; desk: listed venues')
        .choices(Role.options)
        .makeOptionMandatory(),
    )
    .option('--venue <slug>', 'a venue a desk person works at (repeat for several)', collect)
    .action(async (options: { org: string; email: string; role: Role; venue?: string[] }) => {
      const venues = options.venue ?? [];
      if (options.role === 'desk' && venues.length === 0)
        throw new OperatorError('A desk person needs at least one --venue');
      if (options.role === 'admin' && venues.length > 0)
        throw new OperatorError('An admin sees every venue of the organisation; leave --venue out');
      const invitation = await host.withContext(async ({ db, publicUrl }) => {
        const org = await findOrganisationBySlug(db, options.org);
        if (!org) throw new OperatorError(`No organisation with slug ${options.org}`);
        const resolved = await resolveVenueRefs(db, org.id, venues);
        if (resolved.missing.length)
          throw new OperatorError(`No venue ${resolved.missing.join(', ')} in organisation ${options.org}`);
        return invitePerson(db, {
          organisationId: org.id,
          email: options.email,
          role: options.role,
          venueIds: resolved.ids,
          actor: OPERATOR,
          origin: NO_ORIGIN,
          publicUrl,
          now: host.clock.now(),
        });
      });
      const where = invitation.venues.length ? ` at ${invitation.venues.map((v) => v.slug).join(', ')}` : '';
      print(
        host,
        `Invited ${invitation.email} as ${invitation.role}${where} of ${options.org}. ` +
          `Send them this URL (single use, valid until ${invitation.expires_at}):\n\n  ${invitation.url}\n` +
          (invitation.elsewhere
            ? `\nNote: ${invitation.email} already has an account in another organisation; a person belongs to ` +
              'one organisation, so the link will refuse them until that account is removed.\n'
            : ''),
      );
    });

  users
    .command('list')
    .description('list the people of an organisation, then its pending invitations; times are UTC')
    .requiredOption('--org <slug>', 'organisation slug')
    .action(async (options: { org: string }) => {
      const { people, invitations } = await host.withContext(async ({ db }) => {
        const org = await findOrganisationBySlug(db, options.org);
        if (!org) throw new OperatorError(`No organisation with slug ${options.org}`);
        // Every person and invitation: an organisation's staff fits one page of the CLI.
        const all = { offset: 0, limit: 10_000 };
        const [listed, pending] = await Promise.all([
          listUsers(db, org.id, all),
          listPendingInvitations(db, org.id, host.clock.now(), all),
        ]);
        return { people: listed.users, invitations: pending.invitations };
      });
      const venuesOf = (u: { role: string; venues: { slug: string }[] }) =>
        u.role === 'admin' ? 'all' : u.venues.map((v) => v.slug).join(',');
      print(
        host,
        people.length === 0
          ? `Organisation ${options.org} has no people.`
          : formatTable(
              people.map((u) => ({
                id: u.id,
                email: u.email,
                role: u.role,
                venues: venuesOf(u),
                created: toMinute(u.created_at),
                'last sign-in': toMinute(u.last_sign_in_at),
              })),
            ),
      );
      if (invitations.length === 0) return print(host, '\nNo pending invitations.');
      print(
        host,
        `\nPending invitations (revoke one with: users revoke-invitation ID):\n${formatTable(
          invitations.map((i) => ({
            id: i.id,
            email: i.email,
            role: i.role,
            venues: venuesOf(i),
            'invited by': i.invited_by ?? 'operator',
            expires: toMinute(i.expires_at),
          })),
        )}`,
      );
    });

  users
    .command('revoke-invitation')
    .description('revoke a pending invitation by its id (users list shows them): its link stops working at once')
    .argument('<id>', 'the invitation id')
    .action(async (id: string) => {
      if (!isUuid(id)) throw new OperatorError(`${id} is not an invitation id (a UUID, as users list shows)`);
      const revoked = await host.withContext(async ({ db }) => {
        const invitation = await db
          .selectFrom('invitations')
          .select('organisation_id')
          .where('id', '=', id)
          .executeTakeFirst();
        if (!invitation) throw new OperatorError(`No pending invitation ${id}`);
        return revokeInvitation(db, {
          organisationId: invitation.organisation_id,
          invitationId: id,
          actor: OPERATOR,
          origin: NO_ORIGIN,
          now: host.clock.now(),
        }).catch((error: unknown) => {
          throw error instanceof DashboardError ? new OperatorError(`No pending invitation ${id}`) : error;
        });
      });
      print(host, `Revoked the invitation of ${revoked.email}; its link no longer works.`);
    });

  users
    .command('remove')
    .description('remove a person; their sessions end at once')
    .requiredOption('--email <email>', 'their email address', email)
    .action(async (options: { email: string }) => {
      const { sessionsEnded } = await host.withContext(async ({ db }) => {
        const person = await findPersonForSignIn(db, options.email);
        if (!person) throw new OperatorError(`No person with email ${options.email}`);
        return removePerson(db, {
          organisationId: person.organisation_id,
          personId: person.id,
          actor: OPERATOR,
          origin: NO_ORIGIN,
          now: host.clock.now(),
        });
      });
      const ended = sessionsEnded === 1 ? '1 session' : `${sessionsEnded} sessions`;
      print(host, `Removed ${options.email}; ${ended} ended.`);
    });
}
