import { readFileSync } from 'node:fs';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_HEADERS } from '@spa/contract';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';
import { serializeDocument } from '../../src/openapi/serialize.js';

type Json = Record<string, unknown>;
const document = buildOpenApiDocument() as unknown as Json & {
  info: { version: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
  'x-webhooks': Record<string, { post: Json }>;
};

/** Every object of the document with the JSON path that leads to it. */
function* walk(value: unknown, path: string): Generator<[string, Json]> {
  if (value === null || typeof value !== 'object') return;
  if (!Array.isArray(value)) yield [path, value as Json];
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${path}/${key}`);
}
const schemasOnly = (path: string) => !path.includes('/example');

/** What a generator in another language reads: named parts, typed numbers and headers, examples everywhere. */
describe('the OpenAPI document as generators read it', () => {
  it('writes the 201 of a booking create before its 200 (the replay), so the 201 is the normal result', () => {
    const text = serializeDocument(document);
    const create = text.slice(text.indexOf('"/v1/venues/{venue_id}/bookings"'));
    expect(create.indexOf('"201": {')).toBeLessThan(create.indexOf('"200": {'));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(document)));
  });

  it('gives every integer a format that holds its bounds', () => {
    const integers = [...walk(document, '')].filter(([path, node]) => schemasOnly(path) && node.type === 'integer');
    expect(integers.length).toBeGreaterThan(20);
    expect(integers.filter(([, node]) => node.format !== 'int32' && node.format !== 'int64')).toEqual([]);
    const tooSmall = integers.filter(
      ([, node]) => node.format === 'int32' && !(typeof node.maximum === 'number' && node.maximum < 2 ** 31),
    );
    expect(tooSmall).toEqual([]);
  });

  it('describes every property of every schema (a $ref is described by its component)', () => {
    const undescribed = [...walk(document, '')]
      .filter(([path]) => schemasOnly(path))
      .flatMap(([path, node]) =>
        node.type === 'object' && node.properties
          ? Object.entries(node.properties as Record<string, Json>)
              .filter(([, property]) => property.$ref === undefined && typeof property.description !== 'string')
              .map(([name]) => `${path}/${name}`)
          : [],
      );
    expect(undescribed).toEqual([]);
  });

  it('has an example for every request body and every success answer', () => {
    const missing = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) => {
        const bodies: [string, Json | undefined][] = [];
        const request = operation.requestBody as { content: Record<string, Json> } | undefined;
        if (request) bodies.push([`${method} ${path} request`, request.content['application/json']]);
        for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
          if (status.startsWith('2')) {
            const content = response.content as Record<string, Json>;
            bodies.push([`${method} ${path} ${status}`, content['application/json']]);
          }
        }
        return bodies.filter(([, media]) => media?.example === undefined).map(([where]) => where);
      }),
    );
    expect(missing).toEqual([]);
  });

  it('shares error responses, parameters and headers as components', () => {
    const refs = [...walk(document.paths, '')].map(([, node]) => node.$ref).filter((ref) => typeof ref === 'string');
    expect(refs).toContain('#/components/responses/UnauthorizedResponse');
    expect(refs).toContain('#/components/parameters/VenueId');
    const inlineHeaders = [...walk(document.paths, '')].filter(
      ([path, node]) => /\/headers\/[^/]+$/.test(path) && node.$ref === undefined,
    );
    expect(inlineHeaders).toEqual([]);
    expect(document.components.headers!['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
  });

  it('names no server a generated client would call by default, and carries the contract version', () => {
    // NSwag bakes servers[0] into the client: a variable whose default never resolves (RFC 6761 .invalid).
    expect(document.servers).toEqual([
      expect.objectContaining({
        url: '{base_url}',
        variables: { base_url: expect.objectContaining({ default: 'https://partner-api.invalid' }) },
      }),
    ]);
    expect(buildOpenApiDocument('https://api.spa.example').servers).toEqual([
      { url: 'https://api.spa.example', description: 'This server' },
    ]);
    const contract = JSON.parse(
      readFileSync(new URL('../../../../packages/contract/package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(document.info.version).toBe(contract.version);
  });

  it('describes each webhook event with its named payload and the three signature headers', () => {
    expect(Object.keys(document['x-webhooks']).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, { post }] of Object.entries(document['x-webhooks'])) {
      const headers = (post.parameters as { name: string; in: string; required: boolean }[]).map((p) => p.name);
      expect(headers, type).toEqual(Object.values(WEBHOOK_HEADERS));
      const media = (post.requestBody as { content: Record<string, Json> }).content['application/json']!;
      const name = String((media.schema as Json).$ref)
        .split('/')
        .at(-1)!;
      expect(document.components.schemas![name], type).toBeDefined();
      expect((media.example as { type: string }).type).toBe(type);
      expect(post.description).toMatch(/retried after 5 s, 5 min, 30 min/);
    }
  });
  it('names every operation with a camelCase verb and noun, a method name in Java, Go, C# and Python', () => {
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    // The test helpers read as what they do, under their own prefix: testHelperAcceptBooking.
    expect(
      ids.filter(
        (id) =>
          !/^(list|get|create|cancel|reschedule)[A-Z][A-Za-z]+$/.test(String(id)) &&
          !/^testHelper(Accept|Expire|Complete|NoShow)[A-Z][A-Za-z]+$/.test(String(id)),
      ),
    ).toEqual([]);
    const hooks = Object.values(document['x-webhooks']).map(({ post }) => post.operationId);
    expect(hooks.filter((id) => !/^[a-z][A-Za-z0-9]+$/.test(String(id)))).toEqual([]);
  });

  it('names every body: requests and answers refer to components, and no oneOf is left for NSwag to misread', () => {
    const media = [...walk(document, '')].filter(([path]) => path.endsWith('/content/application/json'));
    expect(media.length).toBeGreaterThan(30);
    expect(media.filter(([, node]) => typeof (node.schema as Json).$ref !== 'string').map(([path]) => path)).toEqual(
      [],
    );
    expect([...walk(document, '')].filter(([path, node]) => schemasOnly(path) && node.oneOf)).toEqual([]);
    const pricePaid = (document.components.schemas!.CreateBookingRequest!.properties as Record<string, Json>)
      .price_paid!;
    expect(pricePaid).toEqual({ $ref: '#/components/schemas/Money' });
  });

  it('gives every number the double format (Go: float64, not float32)', () => {
    const numbers = [...walk(document, '')].filter(([path, node]) => schemasOnly(path) && node.type === 'number');
    expect(numbers.filter(([, node]) => node.format !== 'double')).toEqual([]);
    const money = document.components.schemas!.Money!.properties as Record<string, Json>;
    expect(money.amount).toMatchObject({ type: 'number', format: 'double' });
  });

  it('lets a generator pick the class of an error body by its error text, where a status has several', () => {
    const bases: [string, string][] = [
      ['AccessDeniedError', '403'],
      ['NotFoundError', '404'],
      ['ConflictError', '409'],
    ];
    for (const [base, status] of bases) {
      const schema = document.components.schemas![base]!;
      const mapping = (schema.discriminator as { propertyName: string; mapping: Record<string, string> }).mapping;
      expect(Object.keys(mapping).length, base).toBeGreaterThan(2);
      for (const [text, ref] of Object.entries(mapping)) {
        const member = document.components.schemas![ref.split('/').at(-1)!]!;
        // One part in the allOf, its own beside it: oapi-codegen before 2.4 refuses to merge a discriminator's base.
        expect(member.allOf, `${ref} extends ${base}`).toEqual([{ $ref: `#/components/schemas/${base}` }]);
        expect((member.properties as Record<string, Json>).error!.enum).toEqual([text]);
        expect(String(member.description)).toMatch(new RegExp(`^${status}: `));
      }
    }
  });

  it('writes an enum open to additions as a string that lists its known values, and closed ones as enums', () => {
    const open = [...walk(document, '')].filter(
      ([path, node]) => schemasOnly(path) && String(node.description).includes('Open to additions'),
    );
    expect(open.length).toBeGreaterThan(5);
    for (const [path, node] of open) {
      expect([node.type, node.enum, node.anyOf], path).toEqual(['string', undefined, undefined]);
      const known = node['x-extensible-enum'] as string[];
      expect(known.length, path).toBeGreaterThan(0);
      for (const value of known) expect(node.description, path).toContain(`\`${value}\``);
    }
    const booking = document.components.schemas!.Booking!.properties as Record<string, Json>;
    expect(booking.status).toEqual({ $ref: '#/components/schemas/BookingStatus' });
    const day = document.components.schemas!.DayAvailability!.properties as Record<string, Json>;
    expect(day.mode!.enum).toEqual(['day']);
  });
});
