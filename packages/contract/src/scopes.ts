import { z } from 'zod';

/** The six scopes (docs/api.md, "Authentication and keys"). The last two are previews: granted only by the operator. */
export const SCOPES = [
  'venues:read',
  'treatments:read',
  'customers:read',
  'bookings:read',
  'availability:read',
  'bookings:write',
] as const;

export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;
