import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Example } from '@spa/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Components, Schema } from '../../src/openapi/components.js';
import { exampleOf } from '../../src/openapi/examples.js';
import { demoKey } from './demo-server.js';
import { type Prism, startPrism } from './prism.js';

const DOCUMENT_PATH = fileURLToPath(new URL('../../../../docs/openapi.json', import.meta.url));
const DEMO_KEY = demoKey();

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
  example?: unknown;
}
type Ref = { $ref: string };
interface Response {
  content: { 'application/json': { example?: unknown; schema: Schema } };
}
interface Operation {
  operationId: string;
  parameters?: (Parameter | Ref)[];
  requestBody?: { content: { 'application/json': { schema: Schema } } };
  responses: Record<string, Response | Ref>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Components; parameters: Record<string, Parameter>; responses: Record<string, Response> };
}

const document = JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')) as Document;
const resolve = <T>(value: T | Ref, section: Record<string, T>): T =>
  '$ref' in (value as object) ? section[(value as Ref).$ref.split('/').at(-1)!]! : (value as T);

/** Every operation of the document: method, path, and what a partner would send from the document's examples. */
const operations = Object.entries(document.paths).flatMap(([path, item]) =>
  Object.entries(item)
    .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
    .map(([method, operation]) => {
      const parameters = (operation.parameters ?? []).map((p) => resolve(p, document.components.parameters));
      const valueOf = (p: Parameter) => String(p.example ?? p.schema.example);
      let url = path;
      for (const p of parameters.filter((p) => p.in === 'path')) url = url.replace(`{${p.name}}`, valueOf(p));
      const query = new URLSearchParams(
        parameters.filter((p) => p.in === 'query' && p.required).map((p): [string, string] => [p.name, valueOf(p)]),
      );
      // The availability query needs a day or a range, which OpenAPI 3.0 cannot mark required: the day.
      if (operation.operationId === 'getVariantAvailability') query.set('date', Example.date);
      const body = operation.requestBody
        ? exampleOf(operation.requestBody.content['application/json'].schema, document.components.schemas)
        : undefined;
      const successes = Object.keys(operation.responses).filter((code) => code.startsWith('2'));
      return {
        method: method.toUpperCase(),
        path,
        url: query.size ? `${url}?${query.toString()}` : url,
        body,
        operation,
        successes,
      };
    }),
);

/** The example the document gives for an answer of `operation` with `status`. */
const exampleAnswer = (operation: Operation, status: string) =>
  resolve(operation.responses[status]!, document.components.responses).content['application/json'].example;

/**
 * Stoplight Prism as a mock server of docs/openapi.json, what a partner runs to build against the API before having
 * a key: every operation of the document, called with its examples (the demo ids), answers the document's example
 * for its success (never a generated `"string"`), and that example names the demo data.
 */
describe('the OpenAPI document as a Prism mock server', () => {
  let prism: Prism | undefined;
  let base: string;

  beforeAll(async () => {
    prism = await startPrism(['mock', DOCUMENT_PATH]);
    base = prism.base;
  }, 120_000);

  afterAll(() => {
    prism?.stop();
  });

  async function call(method: string, url: string, body: unknown, prefer?: string) {
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${DEMO_KEY}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (prefer) headers.prefer = prefer;
    const res = await fetch(base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: res.status, body: await res.json() };
  }

  it('covers every operation of the document', () => {
    expect(operations.map((o) => o.operation.operationId).sort()).toEqual([
      'cancelBooking',
      'createBooking',
      'getBooking',
      'getEvent',
      'getVariantAvailability',
      'getVenue',
      'listBookings',
      'listCustomerBookings',
      'listCustomers',
      'listEvents',
      'listTreatments',
      'listVenues',
      'rescheduleBooking',
      'testHelperAcceptBooking',
      'testHelperCompleteBooking',
      'testHelperExpireBooking',
      'testHelperNoShowBooking',
    ]);
  });

  it.each(operations)('$method $path answers the example of its success, with the demo data', async (op) => {
    // Prism answers the lowest 2xx it finds, whatever the document's order: for the create that is the replay
    // (200), so the 201 is asked for by `Prefer: code=201` as a partner mocking a first booking does.
    for (const status of op.successes) {
      const answer = await call(op.method, op.url, op.body, op.successes.length > 1 ? `code=${status}` : undefined);
      const example = exampleAnswer(op.operation, status);
      expect(example, `${op.operation.operationId} ${status} has an example`).toBeDefined();
      expect({ status: answer.status, body: answer.body }).toEqual({ status: Number(status), body: example });
      const text = JSON.stringify(answer.body);
      expect(text).not.toContain('"string"');
      const demoIds = [Example.venueId, Example.venueSlug, Example.treatmentId, Example.variantId, Example.customerId];
      expect(
        demoIds.some((id) => text.includes(id)),
        `${text} names the demo data`,
      ).toBe(true);
    }
  });

  it('answers the create with its replay when no status is asked for: the lowest 2xx', async () => {
    const create = operations.find((o) => o.operation.operationId === 'createBooking')!;
    expect([...create.successes].sort()).toEqual(['200', '201']);
    const answer = await call(create.method, create.url, create.body);
    expect(answer.status).toBe(200);
  });
});
