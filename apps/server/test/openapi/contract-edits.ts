import type { Json } from './release-fixture.js';

/** A change made to a copy of the document, and the ids of the breaking changes the guard must name for it. */
export interface Edit {
  name: string;
  apply: (document: Json) => void;
  ids: (original: Json) => string[];
}

const schemas = (document: Json) => document.components.schemas as Record<string, Json>;
const without = (list: string[] | undefined, name: string) => (list ?? []).filter((item) => item !== name);
/** Changes a named enum's values where the document keeps them: `enum`, `x-extensible-enum` (an open one), or the enum member of an `anyOf`. */
export const changeEnum = (document: Json, name: string, change: (values: string[]) => string[]): void => {
  const schema = schemas(document)[name]!;
  const members = (schema.anyOf ?? schema.oneOf ?? []) as Json[];
  const holder =
    schema.enum || schema['x-extensible-enum'] ? schema : members.find((member) => Array.isArray(member.enum))!;
  const key = holder.enum ? 'enum' : 'x-extensible-enum';
  holder[key] = change(holder[key] as string[]);
};
const webhookEvents = (document: Json) =>
  Object.values(document['x-webhooks'] as Json).map((item) =>
    String(item.post.requestBody.content['application/json'].schema.$ref).split('/').at(-1)!,
  );

/** The breaking changes partners reported, each on its own. */
export const ISSUE_EDITS: Edit[] = [
  {
    name: 'booking_number removed from Booking',
    apply: (document) => {
      const booking = schemas(document).Booking!;
      delete booking.properties.booking_number;
      booking.required = without(booking.required, 'booking_number');
    },
    ids: () => ['response field removed: Booking.booking_number'],
  },
  {
    name: 'notes made required in a booking request',
    apply: (document) => schemas(document).CreateBookingRequest!.required.push('notes'),
    ids: () => ['request field made required: CreateBookingRequest.notes'],
  },
  {
    name: 'cancelled_by narrowed to partner',
    apply: (document) => {
      schemas(document).CancelBookingRequest!.properties.cancelled_by.enum = ['partner'];
      changeEnum(document, 'CancelledBy', () => ['partner']);
    },
    ids: () => [
      'request enum value removed: CancelBookingRequest.cancelled_by "customer"',
      'response enum value removed: CancelledBy "customer"',
    ],
  },
  {
    name: 'timestamp deleted from every webhook event',
    apply: (document) => {
      for (const name of webhookEvents(document)) {
        const event = schemas(document)[name]!;
        delete event.properties.timestamp;
        event.required = without(event.required, 'timestamp');
      }
    },
    ids: (original) => webhookEvents(original).map((name) => `response field removed: ${name}.timestamp`),
  },
  {
    name: 'the operationId of GET /v1/venues renamed',
    apply: (document) => {
      document.paths['/v1/venues'].get.operationId = 'fetchAllVenues';
    },
    ids: (original) => [
      `operationId renamed: GET /v1/venues (${original.paths['/v1/venues'].get.operationId} to fetchAllVenues)`,
    ],
  },
  {
    name: 'a status removed from GET /v1/bookings/{booking_id}',
    apply: (document) => {
      delete document.paths['/v1/bookings/{booking_id}'].get.responses['404'];
    },
    ids: () => ['status removed: GET /v1/bookings/{booking_id} 404'],
  },
];

/** The other breaking changes the guard must catch. */
export const OTHER_EDITS: Edit[] = [
  {
    name: 'a response field retyped',
    apply: (document) => {
      schemas(document).Booking!.properties.booking_number.type = 'string';
    },
    ids: () => ['response field retyped: Booking.booking_number (type integer to string)'],
  },
  {
    name: 'a request field added as required',
    apply: (document) => {
      const request = schemas(document).CreateBookingRequest!;
      request.properties.loyalty_id = { type: 'string' };
      request.required.push('loyalty_id');
    },
    ids: () => ['request field added as required: CreateBookingRequest.loyalty_id'],
  },
  {
    name: 'an enum of an answer narrowed',
    apply: (document) => {
      changeEnum(document, 'BookingStatus', (values) => without(values, 'no_show'));
    },
    ids: () => ['response enum value removed: BookingStatus "no_show"'],
  },
  {
    name: 'an operation removed',
    apply: (document) => {
      delete document.paths['/v1/bookings/{booking_id}/cancel'];
    },
    ids: () => ['operation removed: POST /v1/bookings/{booking_id}/cancel'],
  },
  {
    name: 'a parameter removed and another made required',
    apply: (document) => {
      const operation = document.paths['/v1/venues/{venue_id}/availability/variants/{variant_id}'].get;
      const resolve = (parameter: Json): Json =>
        parameter.$ref ? document.components.parameters[String(parameter.$ref).split('/').at(-1)!] : parameter;
      operation.parameters = (operation.parameters as Json[])
        .filter((parameter) => resolve(parameter).name !== 'guest_count')
        .map((parameter) =>
          resolve(parameter).name === 'date' ? { ...resolve(parameter), required: true } : parameter,
        );
    },
    ids: () => [
      'parameter removed: GET /v1/venues/{venue_id}/availability/variants/{variant_id} query guest_count',
      'parameter made required: GET /v1/venues/{venue_id}/availability/variants/{variant_id} query date',
    ],
  },
  {
    name: 'a webhook payload field retyped and a value of a closed enum of a webhook added',
    apply: (document) => {
      const event = schemas(document)[webhookEvents(document)[0]!]!;
      event.properties.timestamp = { type: 'integer' };
      event.properties.type.enum.push('booking.made');
    },
    ids: (original) => [
      `response field retyped: ${webhookEvents(original)[0]}.timestamp (type string to integer)`,
      `response enum value added: ${webhookEvents(original)[0]}.type "booking.made"`,
    ],
  },
  {
    name: 'a named schema renamed (the wire unchanged)',
    apply: (document) => {
      const renamed = JSON.parse(
        JSON.stringify(document).replaceAll('"#/components/schemas/Guest"', '"#/components/schemas/BookingGuest"'),
      );
      renamed.components.schemas.BookingGuest = renamed.components.schemas.Guest;
      delete renamed.components.schemas.Guest;
      Object.assign(document, renamed);
      delete document.components.schemas.Guest;
    },
    ids: () => ['component schema renamed: Guest to BookingGuest'],
  },
  {
    name: 'a named schema removed (inlined where it was used)',
    apply: (document) => {
      const money = schemas(document).Money!;
      const inlined = JSON.parse(
        JSON.stringify(document).replaceAll('{"$ref":"#/components/schemas/Money"}', JSON.stringify(money)),
      );
      Object.assign(document, inlined);
      delete document.components.schemas.Money;
    },
    ids: () => ['component schema removed: Money'],
  },
];
