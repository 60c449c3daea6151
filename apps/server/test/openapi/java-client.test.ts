import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Example } from '@spa/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOOKING_FLOW, JAVA_JARS, JAVA_PACKAGES, generateJavaClient, javaFiles } from './clients/java/generate-java.js';
import { type DemoServer, demoKey, startDemoServer } from './demo-server.js';

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

/** The error schemas of the document: every one of them should reach Java with its `error`. */
const errorSchemas = Object.keys(
  (JSON.parse(readFileSync(DOCUMENT, 'utf8')) as { components: { schemas: Record<string, unknown> } }).components
    .schemas,
).filter((name) => name.endsWith('Error'));

/**
 * A client in a language other than TypeScript: Java, generated from docs/openapi.json at test time by
 * openapi-generator-plus (npm) and compiled with Debian's JDK against Debian's jars (RESTEasy, Jackson), runs the
 * booking flow (test/openapi/clients/java/BookingFlow.java) against the real server with the demo data.
 */
describe.skipIf(missing !== undefined)('a Java client generated from the OpenAPI document, against the server', () => {
  let server: DemoServer | undefined;
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
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('lists, reads availability, gets the booking on 201 as its return value, replays, reads, cancels, 422 again', async () => {
    const args = [Example.venueId, Example.variantId, Example.date, 'java-client-1', errorSchemas.join(',')];
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
    const created = report.created as { id: string; status: string };
    expect(created.status).toBe('pending');
    expect([report.replayId, report.readId]).toEqual([created.id, created.id]);
    expect(report.cancelledStatus).toBe('cancelled');
    expect(report.cancelAgain).toEqual({ exception: 'BookingsCancel422Exception', error: 'BOOKING_ALREADY_CANCELLED' });
    // A 409 of two possible bodies: Jackson picks the class by the `error` discriminator, and the class keeps it.
    expect(report.conflict).toEqual({
      exception: 'BookingsCreate409Exception',
      entity: 'SlotUnavailableError',
      error: 'slot_unavailable',
    });
    expect(errorSchemas.length).toBeGreaterThan(15);
    expect([report.errorClassesWithError, report.errorClassesWithoutError]).toEqual([errorSchemas, []]);
  }, 120_000);
});
