import type { Command } from 'commander';
import { type CommandHost, print } from './command-host.js';
import { formatTable } from './format-table.js';
import { therapistsAtVenue } from '../therapists/therapists.repository.js';
import { listShifts } from './lookups.repository.js';
import { resolveVenue } from './venue-option.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const hhmm = (time: string) => time.slice(0, 5);

export function registerTherapists(program: Command, host: CommandHost): void {
  program
    .command('therapists')
    .description('look up therapists')
    .command('list')
    .description('the therapists of a venue (a weekly shift or a dated override there), with skills and weekly shifts')
    .requiredOption('--venue <slug>', 'venue slug')
    .option('--org <slug>', 'organisation slug, when several organisations have a venue with that slug')
    .action(async (options: { venue: string; org?: string }) => {
      await host.withContext(async ({ db }) => {
        const venue = await resolveVenue(db, options.venue, options.org);
        const therapists = await therapistsAtVenue(db, venue.id);
        if (therapists.length === 0) return print(host, `No therapist works at ${venue.slug}.`);
        const shifts = await listShifts(
          db,
          venue.id,
          therapists.map((t) => t.id),
        );
        print(
          host,
          formatTable(
            therapists.map((t) => ({ id: t.id, name: `${t.first_name} ${t.last_name}` })),
            (i) => {
              const t = therapists[i]!;
              const weekly = shifts
                .filter((s) => s.therapist_id === t.id)
                .map(
                  (s) => `${s.days_of_week.map((d) => DAYS[d]).join(',')} ${hhmm(s.start_time)}-${hhmm(s.end_time)}`,
                );
              return [
                `skills ${t.skills.length ? t.skills.join(', ') : '(none)'}`,
                `shifts ${weekly.length ? weekly.join('; ') : '(dated overrides only)'}`,
              ];
            },
          ),
        );
      });
    });
}
