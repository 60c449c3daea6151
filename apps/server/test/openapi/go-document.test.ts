import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/openapi-document.js';

type Json = Record<string, unknown>;
const document = buildOpenApiDocument() as unknown as {
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
};

// oapi-codegen 1.12's naming, ported from its pkg/codegen/utils.go (ToCamelCase, typeNamePrefix,
// SchemaNameToTypeName, SanitizeEnumNames), so the names below are the Go names it would write.
const SEPARATORS = new Set('-#@!$&=.+:;_~ (){}[]');
function toCamelCase(text: string): string {
  let out = '';
  let capNext = true;
  for (const c of text.trim()) {
    if (/\p{Lu}/u.test(c) || /\p{Nd}/u.test(c)) out += c;
    if (/\p{Ll}/u.test(c)) out += capNext ? c.toUpperCase() : c;
    capNext = SEPARATORS.has(c);
  }
  return out;
}
const PREFIXES: Record<string, string> = {
  '-': 'Minus',
  '+': 'Plus',
  '&': 'And',
  '|': 'Or',
  '~': 'Tilde',
  '=': 'Equal',
  '#': 'Hash',
  '.': 'Dot',
  '*': 'Asterisk',
  '^': 'Caret',
  '%': 'Percent',
};
function typeNamePrefix(name: string): string {
  if (name === '') return 'Empty';
  let prefix = '';
  for (const c of name) {
    if (PREFIXES[c]) prefix += PREFIXES[c];
    else return prefix === '' && /\d/.test(c) ? 'N' : prefix;
  }
  return prefix;
}
const goName = (name: string) => typeNamePrefix(name) + toCamelCase(name);

/** Every schema object of a value, with its JSON path (examples left out). */
function* schemas(value: unknown, path: string): Generator<[string, Json]> {
  if (value === null || typeof value !== 'object' || /\/examples?$/.test(path)) return;
  if (!Array.isArray(value)) yield [path, value as Json];
  for (const [key, child] of Object.entries(value)) yield* schemas(child, `${path}/${key}`);
}
const resolve = (node: Json): Json =>
  typeof node.$ref === 'string' ? resolve(document.components.schemas![node.$ref.split('/').at(-1)!]!) : node;

const operations = Object.values(document.paths).flatMap((item) =>
  Object.values(item).map((operation) => ({
    id: toCamelCase(String(operation.operationId)),
    parameters: ((operation.parameters ?? []) as Json[]).map((p) =>
      typeof p.$ref === 'string' ? document.components.parameters![p.$ref.split('/').at(-1)!]! : p,
    ),
    hasBody: operation.requestBody !== undefined,
  })),
);

/**
 * What oapi-codegen (the Go generator partners use; 1.12 was tried) needs of the document, checked without its
 * binary, which is not buildable here (no Go module proxy, and Debian packages neither it nor most of its
 * modules). Each rule is one of its source's, named where it is.
 */
describe('the OpenAPI document as oapi-codegen reads it', () => {
  it('derives a unique Go type name from every component and operation (GenerateTypes: "duplicate typename")', () => {
    // GenerateTypeDefinitions: schemas, parameters, responses and request bodies (with JSON content) each make a
    // type; every operation makes <Op>Params, <Op>JSONBody, <Op>JSONRequestBody and the client's <Op>Response.
    const kinds = ['schemas', 'parameters', 'responses', 'requestBodies', 'headers'] as const;
    const names = kinds.flatMap((kind) =>
      Object.keys(document.components[kind] ?? {}).map((name) => [goName(name), `components.${kind}.${name}`]),
    );
    for (const op of operations) {
      names.push([`${op.id}Params`, `${op.id} parameters`], [`${op.id}Response`, `${op.id} client answer`]);
      if (op.hasBody) names.push([`${op.id}JSONBody`, `${op.id} body`], [`${op.id}JSONRequestBody`, `${op.id} body`]);
    }
    const seen = new Map<string, string>();
    const clashes = names.flatMap(([name, from]) => {
      const before = seen.get(name!);
      seen.set(name!, from!);
      return before && before !== from ? [`${name}: ${before} and ${from}`] : [];
    });
    expect(names.length).toBeGreaterThan(60);
    expect(clashes).toEqual([]);
  });

  it('gives no enum a constant that is a sentence, and no two constants that differ only in case', () => {
    // SanitizeEnumNames makes each value a constant (`Request body did not arrive...` became
    // RequestBodyDidNotArriveWithin10SOfItsHeaders); oapi-codegen 1.13+ takes x-enum-varnames instead (1.12 ignores
    // it). An enum beside `type: string` inside an anyOf (an open enum) makes no constants: the type is a string.
    const constants = [...schemas(document, '')]
      .filter(([path, node]) => Array.isArray(node.enum) && !/\/anyOf\/\d+$/.test(path))
      .flatMap(([path, node]) => {
        const values = node.enum as string[];
        const names = (node['x-enum-varnames'] as string[] | undefined) ?? values.map(goName);
        return values.map((value, i) => ({
          path,
          value,
          name: names[i]!,
          named: node['x-enum-varnames'] !== undefined,
        }));
      });
    expect(constants.length).toBeGreaterThan(20);
    expect(constants.filter((c) => !c.named && /\s/.test(c.value)).map((c) => c.name)).toEqual([]);
    const byLowerCase = new Map<string, Set<string>>();
    for (const { name } of constants)
      byLowerCase.set(name.toLowerCase(), byLowerCase.get(name.toLowerCase())?.add(name) ?? new Set([name]));
    expect([...byLowerCase.values()].filter((set) => set.size > 1).map((set) => [...set])).toEqual([]);
  });

  it('types every number as float64 at least (schema.go: no format is float32, an unknown format fails)', () => {
    const numbers = [...schemas(document, '')].filter(([, node]) => node.type === 'number');
    expect(numbers.length).toBeGreaterThanOrEqual(5);
    const goType = (node: Json) =>
      typeof node['x-go-type'] === 'string'
        ? node['x-go-type']
        : ({ double: 'float64', float: 'float32', '': 'float32' } as Record<string, string>)[
            typeof node.format === 'string' ? node.format : ''
          ];
    expect(
      numbers.filter(([, node]) => goType(node) !== 'float64').map(([path, node]) => `${path}: ${String(node.format)}`),
    ).toEqual([]);
  });

  it('merges every allOf (merge_schemas.go: one type, one format, one default, one nullable, no discriminator)', () => {
    const problems = [...schemas(document, '')].flatMap(([path, node]) => {
      if (!Array.isArray(node.allOf)) return [];
      const parts = (node.allOf as Json[]).map(resolve);
      const distinct = (key: string) => new Set(parts.map((part) => part[key]).filter((v) => v !== undefined)).size;
      const found = [];
      if (distinct('type') > 1) found.push(`${path}: types differ`);
      if (new Set(parts.map((part) => part.format)).size > 1) found.push(`${path}: formats differ`);
      if (parts.filter((part) => part.default !== undefined).length > 1) found.push(`${path}: two defaults`);
      if (new Set(parts.map((part) => Boolean(part.nullable))).size > 1) found.push(`${path}: nullable differs`);
      // 1.12 to 2.3 refuse any merge with a discriminator ("merging two schemas with discriminators is not
      // supported"): a subclass of a discriminated base has the base as its only allOf part.
      if (parts.length > 1 && parts.some((part) => part.discriminator)) found.push(`${path}: merges a discriminator`);
      return found;
    });
    expect(problems).toEqual([]);
  });

  it('makes no params struct a partner would pass as nil (client.tmpl 1.12 reads params.X without a nil check)', () => {
    // An operation without query parameters takes a params struct only for optional headers: nil panicked.
    const headerOnly = operations.filter(
      (op) => !op.parameters.some((p) => p.in === 'query') && op.parameters.some((p) => p.in !== 'path'),
    );
    expect(headerOnly.map((op) => op.id)).toEqual([]);
    expect(operations.filter((op) => op.parameters.some((p) => p.in === 'header')).map((op) => op.id)).toEqual([]);
  });
});
