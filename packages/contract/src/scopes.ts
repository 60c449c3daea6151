import { z } from 'zod';

/** The six scopes of spec section 5. The last two are "coming soon": granted only by the operator. */
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
