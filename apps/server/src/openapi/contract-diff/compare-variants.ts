import type { Noun, SchemaContext } from './compare-schema.js';
import { isObject, type Json, resolveSchema, type SchemaNode } from './resolve.js';

type Recurse = (before: unknown, after: unknown, place: string) => void;

interface Variant {
  label: string;
  raw: unknown;
}

/**
 * The members of a `oneOf`/`anyOf`, each named by its discriminator value (the mapping's key, or the one value its
 * discriminating property allows), else by its schema's name, else by position. One removed breaks both ways; one
 * added is additive in a request and breaking in an answer (a generated client's dispatch does not know it).
 */
export function compareVariants(
  context: SchemaContext,
  before: SchemaNode,
  after: SchemaNode,
  inner: string,
  noun: Noun,
  recurse: Recurse,
) {
  const { direction: dir, log, where } = context;
  const keyBefore = Array.isArray(before.schema.oneOf) ? 'oneOf' : 'anyOf';
  const keyAfter = Array.isArray(after.schema.oneOf) ? 'oneOf' : 'anyOf';
  if (!Array.isArray(before.schema[keyBefore]) || !Array.isArray(after.schema[keyAfter])) return;
  if (keyBefore !== keyAfter)
    log.add('breaking', `${dir} ${noun} changed`, inner, where, `${keyBefore} to ${keyAfter}`);
  const propertyBefore = discriminatorOf(before.schema)?.propertyName;
  const propertyAfter = discriminatorOf(after.schema)?.propertyName;
  if (propertyBefore !== propertyAfter) {
    // A discriminator added tells a generated client how to dispatch what it had to guess: additive.
    log.add(
      propertyBefore === undefined ? 'additive' : 'breaking',
      `${dir} discriminator changed`,
      inner,
      where,
      `${propertyBefore ?? 'none'} to ${propertyAfter ?? 'none'}`,
    );
  }
  const variantsBefore = variantsOf(context.before, before.schema, keyBefore);
  const variantsAfter = variantsOf(context.after, after.schema, keyAfter);
  const unmatchedBefore = variantsBefore.filter(
    (variant) => !variantsAfter.some((other) => other.label === variant.label),
  );
  const unmatchedAfter = variantsAfter.filter(
    (variant) => !variantsBefore.some((other) => other.label === variant.label),
  );
  for (const variant of variantsBefore) {
    const same = variantsAfter.find((other) => other.label === variant.label);
    if (same) recurse(variant.raw, same.raw, `${inner}|${variant.label}`);
  }
  // Members without a stable label (renamed schemas, no discriminator) are paired in order.
  const paired = Math.min(unmatchedBefore.length, unmatchedAfter.length);
  for (let index = 0; index < paired; index += 1) {
    recurse(unmatchedBefore[index]!.raw, unmatchedAfter[index]!.raw, `${inner}|${unmatchedBefore[index]!.label}`);
  }
  for (const variant of unmatchedBefore.slice(paired))
    log.add('breaking', `${dir} variant removed`, `${inner}|${variant.label}`, where);
  for (const variant of unmatchedAfter.slice(paired)) {
    log.add(dir === 'request' ? 'additive' : 'breaking', `${dir} variant added`, `${inner}|${variant.label}`, where);
  }
}

const discriminatorOf = (schema: Json) =>
  isObject(schema.discriminator)
    ? (schema.discriminator as { propertyName?: string; mapping?: Record<string, string> })
    : undefined;

function variantsOf(document: Json, schema: Json, key: string): Variant[] {
  const discriminator = discriminatorOf(schema);
  return (schema[key] as unknown[]).map((raw, index) => {
    const ref = isObject(raw) && typeof raw.$ref === 'string' ? raw.$ref : undefined;
    const mapped = Object.entries(discriminator?.mapping ?? {}).find(([, target]) => target === ref)?.[0];
    if (mapped) return { label: mapped, raw };
    const property = discriminator?.propertyName;
    const resolved = resolveSchema(document, raw);
    const discriminating = property ? (resolved?.schema.properties as Json | undefined)?.[property] : undefined;
    const values = resolveSchema(document, discriminating)?.schema.enum;
    if (Array.isArray(values) && values.length === 1) return { label: String(values[0]), raw };
    return { label: resolved?.name ?? `#${index + 1}`, raw };
  });
}
