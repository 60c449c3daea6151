import type { Scope } from './scopes.js';

/** The groups of the reference, in the order it lists them; each route names its own in its metadata. */
export const TAGS = {
  venues: 'Venues of your organisation',
  treatments: 'Treatment catalogue',
  customers: 'Customers and their booking history',
  availability: 'Bookable slots (preview)',
  bookings: 'Create and cancel bookings (preview)',
  events: 'What happened to bookings, in order: the events feed',
  test_helpers: 'Test mode: move test bookings as the venue would (test keys only)',
} as const;

export type Tag = keyof typeof TAGS;

/** What a route declares in its contract metadata. */
export interface RouteMetadata {
  /** The OpenAPI operationId: a camelCase verb and noun (`createBooking`), what generators name the method after. */
  operationId: string;
  scope: Scope;
  /** Its group in the reference. */
  tag: Tag;
  preview?: boolean;
}
