import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import getReleasePlan from '@changesets/get-release-plan';
import { describe, expect, it } from 'vitest';
import { breakingChanges, judge } from '../../src/openapi/breaking.js';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- edits of a JSON document

const released = JSON.parse(
  readFileSync(new URL('../../../../docs/openapi.released.json', import.meta.url), 'utf8'),
) as Json;
const generated = () => JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;
const version = (document: Json) => String(document.info.version);

/** `pnpm openapi:breaking` in CI: the released document against the generated one, with the project's rules. */
describe('the breaking-change check of the OpenAPI document', () => {
  it('lets the document the contract generates now through, as the pending changesets release it', async () => {
    const plan = await getReleasePlan(fileURLToPath(new URL('../../../../', import.meta.url)));
    const next = plan.releases.find((release) => release.name === '@spa/contract')!.newVersion;
    expect(judge(released, generated(), next)).toMatchObject({ ok: true });
  });

  it('catches a removed operation, a removed answer field and a new required request field', () => {
    const removed = generated();
    delete removed.paths['/v1/bookings/{booking_id}/cancel'];
    delete removed.components.schemas.Booking.properties.notes;
    removed.components.schemas.Booking.required = removed.components.schemas.Booking.required.filter(
      (name: string) => name !== 'notes',
    );
    removed.components.schemas.CreateBookingRequest.required.push('notes');
    const verdict = judge(released, removed, version(released));
    expect(verdict.ok).toBe(false);
    const paths = verdict.breaking.map((change) => change.path);
    expect(paths).toContain('paths//v1/bookings/{booking_id}/cancel/post');
    expect(paths.some((path) => path.endsWith('/properties/notes'))).toBe(true);
    expect(paths.some((path) => path.includes('/post/requestBody/') && path.includes('required'))).toBe(true);
    expect(verdict.message).toMatch(/major bump of @spa\/contract/);
  });

  it('lets the same breaking change through when the next version is a new major', () => {
    const removed = generated();
    delete removed.paths['/v1/bookings/{booking_id}/cancel'];
    const next = `${Number(version(released).split('.')[0]) + 1}.0.0`;
    expect(judge(released, removed, next)).toMatchObject({ ok: true, message: expect.stringContaining(next) });
    expect(judge(released, removed, version(released).replace(/\.\d+$/, '.9')).ok).toBe(false);
  });

  it('takes a value added to an enum of an answer as compatible, and a lowered maximum of a parameter as breaking', () => {
    const added = generated();
    added.components.schemas.BookingStatus['x-extensible-enum'].push('rescheduled');
    expect(breakingChanges(generated(), added)).toEqual([]);
    const narrowed = generated();
    narrowed.components.parameters.PageSize.schema.maximum = 50;
    // page_size is one shared parameter: each of the three lists that take it narrows.
    const paths = breakingChanges(generated(), narrowed).map((change) => change.path);
    expect(paths).toHaveLength(3);
    expect(paths.filter((path) => !/\/parameters\/\d+\/schema\/maximum$/.test(path))).toEqual([]);
  });
});
