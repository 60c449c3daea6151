import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Example } from '@spa/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_FLOW, JAVA_JARS, JAVA_PACKAGES, generateJavaClient, javaFiles } from './clients/java/generate-java.js';
import { type DemoServer, demoKey, startDemoServer, startFutureServer } from './demo-server.js';

const DOCUMENT = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
const DEMO_KEY = demoKey();

/** Why the Java client cannot run on this machine, or undefined when it can. */
function missingJava(): string | undefined {
  for (const tool of ['javac', 'java']) {
    try {
      execFileSync(tool, ['-version'], { stdio: 'ignore' });
    } catch {
      return `${tool} not found`;
    }
  }
  const jars = JAVA_JARS.filter((jar) => !existsSync(jar));
  return jars.length ? `missing ${jars.join(', ')}` : undefined;
}

const missing = missingJava();
if (missing) {
  console.warn(`Java client test skipped: ${missing} (apt-get install ${JAVA_PACKAGES.join(' ')})`);
}

const schemas = (JSON.parse(readFileSync(DOCUMENT, 'utf8')) as { components: { schemas: Record<string, Json> } })
  .components.schemas;
type Json = Record<string, unknown>;
/** The error body schemas of the document (not the bases of a status): every one should reach Java with `error`. */
const BASES = ['AccessDeniedError', 'NotFoundError', 'ConflictError', 'UnprocessableError'];
const errorSchemas = Object.keys(schemas).filter((name) => name.endsWith('Error') && !BASES.includes(name));

/**
 * A client in a language other than TypeScript: Java, generated from docs/openapi.json at test time by
 * openapi-generator-plus (npm) and compiled with Debian's JDK against Debian's jars (RESTEasy, Jackson), runs the
 * booking flow (test/openapi/clients/java/BookingFlow.java) against the real server with the demo data.
 */
describe.skipIf(missing !== undefined)('a Java client generated from the OpenAPI document, against the server', () => {
  let server: DemoServer | undefined;
  let future: Awaited<ReturnType<typeof startFutureServer>> | undefined;
  let baseUrl: string;
  let work: string;
  const classpath = () => [join(work, 'classes'), ...JAVA_JARS].join(':');

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'java-client-'));
    generateJavaClient(DOCUMENT, join(work, 'src'));
    await promisify(execFile)('javac', [
      '-encoding',
      'UTF-8',
      '-nowarn',
      '-d',
      join(work, 'classes'),
      '-cp',
      JAVA_JARS.join(':'),
      ...javaFiles(join(work, 'src')),
      BOOKING_FLOW,
    ]);

    server = await startDemoServer();
    baseUrl = server.baseUrl;
    future = await startFutureServer();
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await future?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('lists, reads a day and a range, books (201 as the return value), replays, reads, cancels, reads 409 and 404 bodies, reads new enum values', async () => {
    const args = [
      Example.venueId,
      Example.variantId,
      Example.date,
      'java-client-1',
      errorSchemas.join(','),
      future!.url,
    ];
    const { stdout } = await promisify(execFile)('java', [
      '-cp',
      classpath(),
      'BookingFlow',
      baseUrl,
      DEMO_KEY,
      ...args,
    ]);
    const report = JSON.parse(stdout) as Record<string, unknown>;

    expect(report.venueSlugs).toContain(Example.venueSlug);
    // The availability answer's discriminator (`mode`) picks the class.
    expect(report.availabilityClass).toBe('DayAvailability');
    expect(report.range).toEqual({ class: 'RangeAvailability', days: 3 });
    const created = report.created as { id: string; status: string };
    expect(created.status).toBe('pending');
    expect([report.replayId, report.readId]).toEqual([created.id, created.id]);
    expect(report.cancelledStatus).toBe('cancelled');
    expect(report.cancelAgain).toEqual({ exception: 'CancelBooking422Exception', error: 'BOOKING_ALREADY_CANCELLED' });
    // A 409 and a 404 of several possible bodies: Jackson picks the subclass of the status's base by `error`.
    expect(report.conflict).toEqual({
      exception: 'CreateBooking409Exception',
      entity: 'SlotUnavailableError',
      error: 'slot_unavailable',
    });
    expect(report.unknownVariant).toEqual({
      entity: 'VariantNotFoundError',
      error: 'Variant not found',
      requestId: expect.any(String),
    });
    // Open enums are strings: values added after this client was generated read as they are, without an exception.
    expect(report.newValues).toEqual({ status: 'on_hold', clientType: 'marketplace', paymentStatus: 'invoiced' });
    expect(errorSchemas.length).toBeGreaterThan(15);
    expect([report.errorClassesWithError, report.errorClassesWithoutError]).toEqual([errorSchemas, []]);
  }, 120_000);
});
