import { z } from 'zod';
import { CurrencyCode, UtcInstant, Uuid } from '../common.js';

/** `admin`: the whole organisation. `desk`: the bookings of its listed venues only. */
export const Role = z.enum(['admin', 'desk']);
export type Role = z.infer<typeof Role>;

/** An email as the dashboard keeps it: trimmed and lower-case, so one address is one person. */
export const Email = z
  .string({ required_error: 'is required' })
  .trim()
  .toLowerCase()
  .email('must be a valid email address')
  .max(254, 'must be at most 254 characters');

/** How long a password may be, counted as JavaScript does; the web app's password fields use the same bounds. */
export const PASSWORD_LENGTH = { min: 12, max: 256 } as const;

/** A new password: 12 to 256 characters, no other composition rule. */
export const NewPassword = z
  .string({ required_error: 'is required' })
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);

/** A password being checked: anything up to 256 characters, so a too-short guess costs the same as a wrong one. */
export const PasswordAttempt = z
  .string({ required_error: 'is required' })
  .min(1, 'must not be empty')
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);

export const OrganisationSummary = z.object({ id: Uuid, slug: z.string(), name: z.string() });

/** A venue as the dashboard shows it: enough to label it and to write its times and prices. */
export const DashboardVenue = z.object({
  id: Uuid,
  slug: z.string(),
  name: z.string(),
  timezone: z.string().describe('IANA time zone of the venue, e.g. Europe/Paris'),
  currency: CurrencyCode,
});

/** A venue named in a list (a person's venues, a filter). */
export const DashboardVenueSummary = DashboardVenue.pick({ id: true, slug: true, name: true });

/** A person of the organisation, as the users list shows them. */
export const User = z.object({
  id: Uuid,
  email: z.string(),
  role: Role,
  venues: z
    .array(DashboardVenueSummary)
    .describe('The venues a desk person is listed for; empty for an admin (every venue)'),
  created_at: UtcInstant,
  last_sign_in_at: UtcInstant.nullable(),
});
