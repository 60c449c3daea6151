import type {
  BookingStatus as BookingStatusSchema,
  CancelledBy as CancelledBySchema,
  ClientType as ClientTypeSchema,
} from '@spa/contract';
import type { AuditAction, AuditTargetType, Role } from '@spa/contract/dashboard';
import type { ColumnType, Generated } from 'kysely';
import type { z } from 'zod';

/**
 * Kysely table types. Dates, times and instants come back as strings (see type-parsers.ts) and become
 * Temporal values or contract ISO strings in each feature's repository.
 */
type Instant = ColumnType<string, string, string>;
type DefaultedInstant = ColumnType<string, string | undefined, string>;
/** bigint columns read back as numbers (minor units and counters stay far below 2^53). */
type Int8 = ColumnType<number, number, number>;

export interface Database {
  organisations: { id: string; slug: string; name: string; created_at: DefaultedInstant };
  venues: VenueTable;
  one_time_openings: { venue_id: string; date: string; opening_time: string | null; closing_time: string | null };
  venue_blocks: {
    id: string;
    venue_id: string;
    daily: boolean;
    start_time: string | null;
    end_time: string | null;
    start_at: string | null;
    end_at: string | null;
    reason: string | null;
  };
  rooms: { id: string; venue_id: string; name: string; capacity: number };
  treatments: {
    id: string;
    venue_id: string;
    position: ColumnType<number, number | undefined, number>;
    name: string;
    name_en: string | null;
    description: string | null;
    description_en: string | null;
    category: string | null;
    lead_time_minutes: Generated<number>;
    required_skills: Generated<string[]>;
  };
  treatment_rooms: { treatment_id: string; room_id: string };
  variants: {
    id: string;
    treatment_id: string;
    position: ColumnType<number, number | undefined, number>;
    name: string;
    duration_minutes: number;
    price_minor: Int8;
    currency: string;
    is_default: boolean;
  };
  therapists: {
    id: string;
    organisation_id: string;
    first_name: string;
    last_name: string;
    skills: Generated<string[]>;
  };
  therapist_shifts: {
    id: Generated<number>;
    therapist_id: string;
    venue_id: string;
    days_of_week: number[];
    start_time: string;
    end_time: string;
  };
  therapist_shift_overrides: {
    therapist_id: string;
    venue_id: string;
    date: string;
    start_time: string | null;
    end_time: string | null;
  };
  therapist_absences: { id: Generated<number>; therapist_id: string; start_at: Instant; end_at: Instant };
  customers: {
    id: string;
    organisation_id: string;
    first_name: string;
    last_name: string;
    email: string;
    phone: string | null;
    language: ColumnType<string, string | undefined, string>;
    created_at: DefaultedInstant;
    /** Test-mode rows are kept apart from live ones (docs/decisions.md, "Test mode"). */
    livemode: Generated<boolean>;
  };
  bookings: BookingTable;
  room_reservations: { booking_id: string; room_id: string; during: string; livemode: Generated<boolean> };
  therapist_reservations: {
    booking_id: string;
    therapist_id: string;
    venue_id: string;
    during: string;
    livemode: Generated<boolean>;
  };
  booking_offers: {
    booking_id: string;
    therapist_id: string;
    offered_at: DefaultedInstant;
    accepted_at: string | null;
  };
  api_keys: {
    id: string;
    organisation_id: string;
    venue_id: string | null;
    kind: 'dashboard' | 'operator';
    scopes: string[];
    rate_limit_per_min: number | null;
    secret_hmac: string;
    secret_encrypted: string;
    created_at: DefaultedInstant;
    revoked_at: string | null;
    livemode: Generated<boolean>;
  };
  webhook_endpoints: WebhookEndpointTable;
  webhook_events: {
    id: string;
    type: string;
    /** Null for a test event, which instead names its one recipient in endpoint_id. */
    booking_id: string | null;
    organisation_id: string;
    venue_id: string | null;
    endpoint_id: ColumnType<string | null, string | null | undefined, string | null>;
    body: string;
    created_at: Instant;
    /** The events feed's order, given once the event has committed (webhooks/events-feed.repository.ts). */
    seq: ColumnType<number | null, never, number>;
    /** The order events were written in: the numbering's order among the events it takes at once. */
    recorded: ColumnType<number, never, never>;
    livemode: Generated<boolean>;
  };
  webhook_deliveries: {
    id: Generated<number>;
    event_id: string;
    endpoint_id: string;
    status: ColumnType<'pending' | 'succeeded' | 'failed', 'pending' | undefined, 'pending' | 'succeeded' | 'failed'>;
    attempts: Generated<number>;
    next_attempt_at: Instant;
    lease_until: string | null;
    lease_token: string | null;
    completed_at: string | null;
    /** Attempts made before the last replay: the log numbers a replay's attempts on from them. */
    attempt_base: Generated<number>;
    /** Set by a replay: its next attempt is logged as manual. */
    manual_next: Generated<boolean>;
    livemode: Generated<boolean>;
  };
  webhook_attempts: {
    id: Generated<number>;
    delivery_id: number;
    attempt: number;
    started_at: Instant;
    duration_ms: number;
    status_code: number | null;
    response_body: string | null;
    error: string | null;
    /** The first attempt of a replay a person or the operator asked for. */
    manual: Generated<boolean>;
  };
  people: {
    id: string;
    organisation_id: string;
    email: string;
    role: Role;
    password_hash: string;
    created_at: Instant;
    password_changed_at: Instant;
    last_sign_in_at: string | null;
  };
  person_venues: { person_id: string; venue_id: string };
  invitations: {
    id: string;
    organisation_id: string;
    email: string;
    role: Role;
    venue_ids: ColumnType<string[], string[] | undefined, string[]>;
    token_hash: string;
    invited_by: string | null;
    created_at: Instant;
    expires_at: Instant;
    accepted_at: string | null;
  };
  sessions: {
    id: string;
    person_id: string;
    token_hash: string;
    csrf_token: string;
    created_at: Instant;
    last_seen_at: Instant;
    absolute_expires_at: Instant;
    confirmed_at: string | null;
    ip: string | null;
    user_agent: string | null;
  };
  audit_events: {
    id: string;
    organisation_id: string;
    actor_type: 'person' | 'operator' | 'api_key';
    actor_person_id: string | null;
    actor_email: string | null;
    /** The id of the API key a partner's change came through (never its secret). */
    actor_key_id: ColumnType<string | null, string | null | undefined, string | null>;
    action: AuditAction;
    target_type: AuditTargetType | null;
    target_id: string | null;
    /** What the target was called at the time (an email, a URL, a booking number); never a secret. */
    target_label: ColumnType<string | null, string | null | undefined, string | null>;
    ip: string | null;
    user_agent: string | null;
    created_at: Instant;
  };
  /** Sessions ended for their holder, kept until they would have expired, so the next request can say why. */
  ended_sessions: {
    token_hash: string;
    reason: 'removed' | 'password_changed' | 'signed_out_everywhere';
    ended_at: Instant;
    expires_at: Instant;
  };
  /**
   * One row per (transaction, venue) of every change to what availability reads (migration 0016; db/change-log.ts);
   * `xid` (xid8, read as text) is the writing transaction's, the nil UUID stands for every venue.
   */
  availability_changes: { xid: Generated<string>; venue_id: string };
  /** rate-limiter-flexible's store (rate-limit/rate-limiter.ts); `expire` in epoch milliseconds. */
  rate_limits: { key: string; points: Generated<number>; expire: Int8 | null };
}

export interface WebhookEndpointTable {
  id: string;
  organisation_id: string;
  venue_id: string | null;
  url: string;
  event_types: ColumnType<string[], string[] | undefined, string[]>;
  secret_encrypted: string;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | null;
  created_at: Instant;
  last_success_at: string | null;
  failing_since: string | null;
  disabled_at: string | null;
  /** Removed: left out of every list and of new deliveries; kept for its deliveries' history. */
  removed_at: string | null;
  livemode: Generated<boolean>;
}

export interface VenueTable {
  id: string;
  organisation_id: string;
  slug: string;
  status: string;
  venue_type: 'hotel' | 'spa';
  name: string;
  name_en: string | null;
  description: string | null;
  description_en: string | null;
  landing_subtitle: string | null;
  address: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  currency: string;
  timezone: string | null;
  vat: Generated<number>;
  image: string | null;
  cover_image: string | null;
  opening_time: string;
  closing_time: string;
  slot_interval: number;
  schedule_type: 'recurring' | 'one_time';
  days_of_week: Generated<number[]>;
  recurrence_interval: number | null;
  recurring_start_date: string | null;
  recurring_end_date: string | null;
  offert: Generated<boolean>;
  booking_hold_enabled: Generated<boolean>;
  booking_hold_duration_minutes: Generated<number>;
  allow_out_of_hours_booking: Generated<boolean>;
  out_of_hours_surcharge_percent: Generated<number>;
  room_turnover_buffer_minutes: Generated<number>;
  inter_venue_buffer_minutes: Generated<number>;
  therapist_response_minutes: Generated<number>;
  cancellation_policy: ColumnType<CancellationPolicyJson, string, string>;
}

export interface CancellationPolicyJson {
  partner: { min_hours_before: number; fee_percent: number }[];
  customer: { min_hours_before: number; fee_percent: number }[];
}

/** The contract's enums are the one definition; the columns hold exactly their values. */
export type BookingStatus = z.infer<typeof BookingStatusSchema>;
export type CancelledBy = z.infer<typeof CancelledBySchema>;
export type ClientType = z.infer<typeof ClientTypeSchema>;

export interface BookingTable {
  id: string;
  booking_number: ColumnType<number, never, never>;
  venue_id: string;
  treatment_id: string;
  variant_id: string;
  customer_id: string;
  status: BookingStatus;
  start_at: Instant;
  end_at: Instant;
  guest_count: number;
  notes: string | null;
  external_reference: string | null;
  external_id: string | null;
  client_type: ClientType;
  total_price_minor: Int8;
  currency: string;
  payment_method: ColumnType<string, string | undefined, string>;
  payment_status: ColumnType<string, string | undefined, string>;
  therapist_id: string | null;
  /** Distinct therapists who accepted; the booking is confirmed when it reaches guest_count. */
  accepted_count: ColumnType<number, number | undefined, number>;
  /** When the therapists' response window started; null means at created_at. */
  response_window_from: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: DefaultedInstant;
  updated_at: DefaultedInstant;
  cancelled_at: string | null;
  cancelled_by: CancelledBy | null;
  cancellation_reason: string | null;
  cancellation_fee_minor: Int8 | null;
  cancellation_policy_text: string | null;
  livemode: Generated<boolean>;
}
