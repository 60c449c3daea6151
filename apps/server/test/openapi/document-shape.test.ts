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
    expect(refs).toContain('#/components/responses/Unauthorized');
    expect(refs).toContain('#/components/parameters/XRequestId');
    expect(refs).toContain('#/components/parameters/VenueId');
    const inlineHeaders = [...walk(document.paths, '')].filter(
      ([path, node]) => /\/headers\/[^/]+$/.test(path) && node.$ref === undefined,
    );
    expect(inlineHeaders).toEqual([]);
    expect(document.components.headers!['Retry-After']).toMatchObject({ schema: { type: 'integer' } });
  });

  it('starts with a server a generated client can use as is, and carries the contract version', () => {
    expect(document.servers[0]!.url).toMatch(/^https?:\/\/[^{}]+$/);
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
});
