export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Keywords that only explain: a change of them needs no version (docs/releasing.md). */
export const isProse = (key: string) =>
  ['description', 'summary', 'title', 'example', 'examples', 'externalDocs', 'xml'].includes(key) ||
  (key.startsWith('x-') && !COMPARED_EXTENSIONS.includes(key));

/** The extensions generators read for names and values: compared, not prose. */
const COMPARED_EXTENSIONS = ['x-enum-varnames', 'x-extensible-enum', 'x-webhooks'];

/** What a `$ref` of this document points to, and the component's name when it is one of `components.schemas`. */
export function follow(document: Json, value: unknown): { value: unknown; name?: string } {
  let name: string | undefined;
  for (let hops = 0; isObject(value) && typeof value.$ref === 'string'; hops += 1) {
    if (hops > 32) throw new Error(`$ref chain too long at ${value.$ref}`);
    const ref = value.$ref;
    if (!ref.startsWith('#/')) throw new Error(`${ref}: only references inside the document are supported`);
    const keys = ref
      .slice(2)
      .split('/')
      .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
    name = keys.length === 3 && keys[0] === 'components' && keys[1] === 'schemas' ? keys[2] : undefined;
    value = keys.reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document);
    if (value === undefined) throw new Error(`${ref} points to nothing`);
  }
  return { value, name };
}

/** The name of a `components.{kind}` entry that `value` refers to, when it is a reference to one. */
export function componentName(value: unknown, kind: string): string | undefined {
  const ref = isObject(value) ? value.$ref : undefined;
  const prefix = `#/components/${kind}/`;
  return typeof ref === 'string' && ref.startsWith(prefix) ? ref.slice(prefix.length) : undefined;
}

/** A schema as the comparison reads it. */
export interface SchemaNode {
  schema: Json;
  /** The named schema (`components.schemas`) this node is, when it is one. */
  name?: string;
  /** Keywords written beside a `$ref` or a one-member `allOf` (a field's own default, nullable...), not the component's. */
  beside: Set<string>;
  /** An enum the document declares open to additions (a minor version may add values to an answer). */
  open: boolean;
}

const OPEN_PROSE = /open to additions/i;

/**
 * Resolves a schema for the comparison: a `$ref`, and an `allOf` of one member (a reference with the field's own
 * keywords beside it), become the component with those keywords; an `allOf` of several becomes one object (their
 * properties and required lists together); an `anyOf`/`oneOf` of one enum and the plain type it restricts (how
 * generators are told an enum is open) becomes that enum, marked open.
 */
export function resolveSchema(document: Json, raw: unknown): SchemaNode | undefined {
  if (!isObject(raw)) return undefined;
  const { value, name } = follow(document, raw);
  if (!isObject(value)) return undefined;
  const { $ref: _ref, ...beside } = raw;
  let node: SchemaNode = {
    schema: name ? { ...value, ...beside } : value,
    name,
    beside: new Set(name ? Object.keys(beside) : []),
    open: false,
  };
  const allOf = node.schema.allOf;
  if (Array.isArray(allOf)) node = mergeAllOf(document, node, allOf);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const members = node.schema[key];
    if (Array.isArray(members)) node = openEnum(document, node, key, members) ?? node;
  }
  const prose = typeof node.schema.description === 'string' ? node.schema.description : '';
  node.open ||= Array.isArray(node.schema['x-extensible-enum']) || OPEN_PROSE.test(prose);
  return node;
}

function mergeAllOf(document: Json, node: SchemaNode, members: unknown[]): SchemaNode {
  const { allOf: _allOf, ...rest } = node.schema;
  const resolved = members.map((member) => resolveSchema(document, member)).filter((member) => member !== undefined);
  if (resolved.length === 1) {
    const [only] = resolved;
    // A subclass (`allOf: [base]` with its own fields beside it) has the base's fields and its own together.
    const own = { ...rest };
    if (isObject(rest.properties) && isObject(only!.schema.properties))
      own.properties = { ...only!.schema.properties, ...rest.properties };
    if (Array.isArray(rest.required) && Array.isArray(only!.schema.required))
      own.required = [...new Set([...(only!.schema.required as string[]), ...(rest.required as string[])])];
    return {
      schema: { ...only!.schema, ...own },
      name: only!.name ?? node.name,
      beside: new Set([...Object.keys(rest), ...only!.beside]),
      open: only!.open,
    };
  }
  const merged: Json = {};
  for (const member of resolved) {
    for (const [key, child] of Object.entries(member.schema)) {
      if (key === 'properties') merged.properties = { ...(merged.properties as Json), ...(child as Json) };
      else if (key === 'required')
        merged.required = [...new Set([...((merged.required as string[]) ?? []), ...(child as string[])])];
      else merged[key] ??= child;
    }
  }
  return { schema: { ...merged, ...rest }, name: node.name, beside: node.beside, open: false };
}

const PLAIN_KEYS = new Set(['type', 'nullable']);

function openEnum(document: Json, node: SchemaNode, key: string, members: unknown[]): SchemaNode | undefined {
  const resolved = members.map((member) => resolveSchema(document, member));
  const enums = resolved.filter((member) => Array.isArray(member?.schema.enum));
  if (enums.length !== 1 || resolved.length < 2) return undefined;
  const [closed] = enums;
  const plain = resolved.filter((member) => member !== closed);
  const isPlain = (member: SchemaNode | undefined) =>
    member !== undefined &&
    member.schema.type === closed!.schema.type &&
    Object.keys(member.schema).every((name) => PLAIN_KEYS.has(name) || isProse(name));
  if (!plain.every(isPlain)) return undefined;
  const { [key]: _members, ...rest } = node.schema;
  return { schema: { ...closed!.schema, ...rest }, name: node.name ?? closed!.name, beside: node.beside, open: true };
}

/** The values an enum allows: `enum`, or `x-extensible-enum` (the values known today of an open one). */
export function enumOf(schema: Json): unknown[] | undefined {
  const values = schema.enum ?? schema['x-extensible-enum'];
  return Array.isArray(values) ? values : undefined;
}

export function typesOf(schema: Json): string[] | undefined {
  const type = schema.type;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? [...(type as string[])].sort() : undefined;
}

export { isObject };
