import { randomUUID } from 'node:crypto';
import type { Temporal } from 'temporal-polyfill';
import type { KeyVault } from '../../src/auth/api-key.js';
import { contextHost } from '../../src/cli/command-host.js';
import { runCli } from '../../src/cli/program.js';
import type { Db } from '../../src/db/connect.js';
import type { Clock } from '../../src/lib/clock.js';
import { TEST_PUBLIC_URL } from '../support/test-app.js';
import { EVERY_DAY, makeBooking, makeCustomer, makeTherapist, makeTreatment } from '../support/factories.js';
import { makeDashboardOrganisation } from './dashboard-support.js';

/**
 * What the resource routes act on, in one organisation: a pending booking at `venueId` offered to one therapist,
 * a webhook endpoint, and the booking's event with its delivery. Stored directly: tests about access need rows,
 * not the services that make them.
 */
export async function makeOrganisationResources(db: Db, organisationId: string, venueId: string) {
  const treatment = await makeTreatment(db, venueId);
  const customer = await makeCustomer(db, organisationId);
  const therapist = await makeTherapist(db, organisationId, {
    shifts: [{ venue_id: venueId, days_of_week: EVERY_DAY, start_time: '09:00', end_time: '18:00' }],
  });
  const booking = await makeBooking(
    db,
    { venueId, treatmentId: treatment.id, variantId: treatment.variant.id, customerId: customer.id },
    { status: 'pending', start_at: '2026-11-25T09:00:00Z', end_at: '2026-11-25T10:00:00Z' },
  );
  await db.insertInto('booking_offers').values({ booking_id: booking.id, therapist_id: therapist.id }).execute();
  const endpoint = { id: randomUUID(), url: 'https://hooks.example.com/spa' };
  await db
    .insertInto('webhook_endpoints')
    .values({
      ...endpoint,
      organisation_id: organisationId,
      venue_id: null,
      secret_encrypted: 'not used: these tests send nothing',
      created_at: '2026-11-20T08:00:00Z',
    })
    .execute();
  const event = { id: randomUUID(), type: 'booking.created' };
  await db
    .insertInto('webhook_events')
    .values({
      ...event,
      booking_id: booking.id,
      organisation_id: organisationId,
      venue_id: venueId,
      body: '{}',
      created_at: '2026-11-21T08:00:00Z',
    })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values({ event_id: event.id, endpoint_id: endpoint.id, next_attempt_at: '2026-11-21T08:00:00Z' })
    .execute();
  return { treatment, customer, therapist, booking, endpoint, event };
}

/** A dashboard organisation (admin, desk on its first venue) with resources at its first venue. */
export async function makeResourcefulOrganisation(db: Db) {
  const world = await makeDashboardOrganisation(db);
  return { ...world, resources: await makeOrganisationResources(db, world.org.id, world.venue.id) };
}

/** `pnpm spa …` against a test context's database and clock, as the operator runs it. */
export function spaOf(ctx: { db: Db; vault: KeyVault; clock: Clock }) {
  return async (...argv: string[]) => {
    const run = { stdout: '', stderr: '' };
    const io = { stdout: (t: string) => (run.stdout += t), stderr: (t: string) => (run.stderr += t) };
    const host = contextHost(
      { db: ctx.db, vault: ctx.vault, publicUrl: TEST_PUBLIC_URL },
      { cwd: process.cwd(), io, clock: ctx.clock },
    );
    return { code: await runCli(argv, host), ...run };
  };
}

/** The password confirmation of a person's sessions, moved back past the 5-minute window. */
export async function expireConfirmation(db: Db, personId: string, now: Temporal.Instant) {
  await db
    .updateTable('sessions')
    .set({ confirmed_at: now.subtract({ minutes: 6 }).toString() })
    .where('person_id', '=', personId)
    .execute();
}
