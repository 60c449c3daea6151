import { isDeepStrictEqual } from 'node:util';
import type { ChangeLog } from './change-log.js';
import { compareBounds } from './compare-bounds.js';
import { compareEnums } from './compare-enums.js';
import { compareVariants } from './compare-variants.js';
import { isObject, isProse, type Json, resolveSchema, type SchemaNode, typesOf } from './resolve.js';

/** Who reads the value: the server (a request, what it accepts) or the partner (an answer or a webhook payload). */
export type Direction = 'request' | 'response';

export interface SchemaContext {
  before: Json;
  after: Json;
  log: ChangeLog;
  /** Named schemas seen at the same place under another name: before's name to after's. */
  renames: Map<string, Set<string>>;
  direction: Direction;
  /** The operation (and status) this schema is reached from: `GET /v1/bookings/{booking_id} 200`. */
  where: string;
}

/** What is being compared, for the ids: `field`, `body`, `parameter`, `header`. */
export type Noun = 'field' | 'body' | 'parameter' | 'header';

/** Every keyword this comparison reads; another one that changes is reported as an unclassified breaking change. */
const COMPARED = new Set([
  ...['type', 'nullable', 'format', 'pattern', 'multipleOf', 'uniqueItems', 'default', 'deprecated'],
  ...['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems'],
  ...['enum', 'x-extensible-enum', 'x-enum-varnames', 'properties', 'required', 'additionalProperties', 'items'],
  ...['oneOf', 'anyOf', 'discriminator'],
]);

/**
 * Compares what a schema allows before and after, from the reader's side: for a request, accepting less is
 * breaking and accepting more is additive; for an answer, sending more (or other) is breaking and sending less is
 * additive, except that a field, enum value or variant an answer loses is breaking too (a generated client's type
 * or constant disappears). `subject` names the place (`CreateBookingRequest.notes`); inside a named schema it
 * restarts at that schema's name, so a change of a shared schema is one change, however many operations use it.
 */
export function compareSchemas(
  context: SchemaContext,
  rawBefore: unknown,
  rawAfter: unknown,
  subject: string,
  noun: Noun,
  stack: string[] = [],
): void {
  const before = resolveSchema(context.before, rawBefore);
  const after = resolveSchema(context.after, rawAfter);
  if (!before || !after) return;
  const pair = `${before.name ?? '?'}|${after.name ?? '?'}`;
  if (before.name && stack.includes(pair)) return;
  if (before.name && after.name && before.name !== after.name) {
    const seen = context.renames.get(before.name) ?? new Set<string>();
    context.renames.set(before.name, seen.add(after.name));
  }
  const inner = before.name ?? subject;
  /** A keyword written beside a reference belongs to the field, not to the named schema. */
  const at = (keyword: string) => (before.beside.has(keyword) || after.beside.has(keyword) ? subject : inner);
  const { direction: dir, log, where } = context;
  const add = log.add.bind(log);

  const typesBefore = typesOf(before.schema);
  const typesAfter = typesOf(after.schema);
  if (typesBefore && typesAfter && !isDeepStrictEqual(typesBefore, typesAfter)) {
    const detail = `type ${typesBefore.join('|')} to ${typesAfter.join('|')}`;
    const widened = typesBefore.every(
      (type) => typesAfter.includes(type) || (type === 'integer' && typesAfter.includes('number')),
    );
    if (dir === 'request' && widened) add('additive', `request ${noun} widened`, at('type'), where, detail);
    else add('breaking', `${dir} ${noun} retyped`, at('type'), where, detail);
    return;
  }
  if (hasVariants(before) !== hasVariants(after)) {
    const shape = (node: SchemaNode) =>
      hasVariants(node) ? 'one of several shapes' : (typesOf(node.schema)?.join('|') ?? 'any');
    add('breaking', `${dir} ${noun} reshaped`, inner, where, `${shape(before)} to ${shape(after)}`);
    return;
  }

  const nullBefore = before.schema.nullable === true;
  const nullAfter = after.schema.nullable === true;
  if (nullBefore !== nullAfter) {
    const wider = nullAfter;
    const kind = wider ? `${dir} ${noun} made nullable` : `${dir} ${noun} no longer nullable`;
    add(wider === (dir === 'response') ? 'breaking' : 'additive', kind, at('nullable'), where);
  }
  if (before.schema.deprecated !== after.schema.deprecated) {
    add(
      'additive',
      after.schema.deprecated ? `${noun} deprecated` : `${noun} no longer deprecated`,
      at('deprecated'),
      where,
    );
  }
  if (dir === 'request' && !isDeepStrictEqual(before.schema.default, after.schema.default)) {
    const changed = before.schema.default !== undefined && after.schema.default !== undefined;
    const detail = `${JSON.stringify(before.schema.default) ?? 'none'} to ${JSON.stringify(after.schema.default) ?? 'none'}`;
    add(changed ? 'breaking' : 'additive', `request default changed`, at('default'), where, detail);
  }
  compareBounds(context, before, after, at, noun);
  compareEnums(context, before, after, at);
  compareUnknown(context, before, after, inner, noun);

  const next = before.name ? [...stack, pair] : stack;
  compareProperties(context, before, after, inner, next);
  if (isObject(before.schema.items) && isObject(after.schema.items)) {
    compareSchemas(context, before.schema.items, after.schema.items, `${inner}[]`, noun, next);
  }
  compareVariants(context, before, after, inner, noun, (b, a, place) =>
    compareSchemas(context, b, a, place, noun, next),
  );
}

const hasVariants = (node: SchemaNode) => Array.isArray(node.schema.oneOf) || Array.isArray(node.schema.anyOf);

function compareProperties(
  context: SchemaContext,
  before: SchemaNode,
  after: SchemaNode,
  inner: string,
  stack: string[],
) {
  const { direction: dir, log, where } = context;
  const propsBefore = (before.schema.properties ?? {}) as Json;
  const propsAfter = (after.schema.properties ?? {}) as Json;
  const requiredBefore = new Set((before.schema.required as string[] | undefined) ?? []);
  const requiredAfter = new Set((after.schema.required as string[] | undefined) ?? []);
  for (const name of new Set([...Object.keys(propsBefore), ...Object.keys(propsAfter)])) {
    const place = `${inner}.${name}`;
    if (!(name in propsAfter)) {
      log.add('breaking', `${dir} field removed`, place, where);
    } else if (!(name in propsBefore)) {
      if (dir === 'request' && requiredAfter.has(name))
        log.add('breaking', 'request field added as required', place, where);
      else log.add('additive', `${dir} field added`, place, where);
    } else {
      const was = requiredBefore.has(name);
      const is = requiredAfter.has(name);
      if (was !== is) {
        const kind = `${dir} field made ${is ? 'required' : 'optional'}`;
        log.add(is === (dir === 'request') ? 'breaking' : 'additive', kind, place, where);
      }
      compareSchemas(context, propsBefore[name], propsAfter[name], place, 'field', stack);
    }
  }
  const extraBefore = before.schema.additionalProperties;
  const extraAfter = after.schema.additionalProperties;
  if (isObject(extraBefore) && isObject(extraAfter)) {
    compareSchemas(context, extraBefore, extraAfter, `${inner}.*`, 'field', stack);
  } else if (!isDeepStrictEqual(extraBefore, extraAfter)) {
    const closes = extraAfter === false;
    const detail = `additionalProperties ${JSON.stringify(extraBefore) ?? 'unset'} to ${JSON.stringify(extraAfter) ?? 'unset'}`;
    const breaking =
      dir === 'request' ? closes || isObject(extraAfter) : extraBefore === false || isObject(extraBefore);
    log.add(breaking ? 'breaking' : 'additive', `${dir} other fields changed`, inner, where, detail);
  }
}

/** A keyword this comparison does not read (readOnly, not, const...) that changed: breaking until a rule says why not. */
function compareUnknown(context: SchemaContext, before: SchemaNode, after: SchemaNode, inner: string, noun: Noun) {
  for (const key of new Set([...Object.keys(before.schema), ...Object.keys(after.schema)])) {
    if (COMPARED.has(key) || isProse(key)) continue;
    if (!isDeepStrictEqual(before.schema[key], after.schema[key])) {
      context.log.add('breaking', `${context.direction} ${noun} changed`, inner, context.where, `keyword ${key}`);
    }
  }
}
