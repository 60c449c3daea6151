import type { Noun, SchemaContext } from './compare-schema.js';
import type { SchemaNode } from './resolve.js';

type Effect = 'narrows' | 'widens' | 'changes';

/** How a change of one restricting keyword moves the set of allowed values. */
const RULES: Record<string, (before: unknown, after: unknown) => Effect> = {
  minimum: lowerBound,
  minLength: lowerBound,
  minItems: lowerBound,
  maximum: upperBound,
  maxLength: upperBound,
  maxItems: upperBound,
  // OpenAPI 3.0 writes these as flags beside minimum/maximum (true is stricter); 3.1 as numbers, bounds themselves.
  exclusiveMinimum: (before, after) =>
    typeof after === 'number' || typeof before === 'number' ? lowerBound(before, after) : flag(before, after),
  exclusiveMaximum: (before, after) =>
    typeof after === 'number' || typeof before === 'number' ? upperBound(before, after) : flag(before, after),
  uniqueItems: flag,
  pattern: restriction,
  format: restriction,
  multipleOf: restriction,
};

function lowerBound(before: unknown, after: unknown): Effect {
  if (before === undefined) return 'narrows';
  if (after === undefined) return 'widens';
  return (after as number) > (before as number) ? 'narrows' : 'widens';
}

function upperBound(before: unknown, after: unknown): Effect {
  if (before === undefined) return 'narrows';
  if (after === undefined) return 'widens';
  return (after as number) < (before as number) ? 'narrows' : 'widens';
}

function flag(before: unknown, after: unknown): Effect {
  return after === true ? 'narrows' : before === true ? 'widens' : 'changes';
}

/** A pattern, format or multipleOf added restricts, removed frees; replaced, it may do both. */
function restriction(before: unknown, after: unknown): Effect {
  if (before === undefined) return 'narrows';
  if (after === undefined) return 'widens';
  return 'changes';
}

const show = (value: unknown) =>
  value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);

/**
 * Bounds, lengths, patterns and formats. A request that accepts less is breaking, one that accepts more additive;
 * an answer that may send more (or other) values is breaking, one that sends fewer additive.
 */
export function compareBounds(
  context: SchemaContext,
  before: SchemaNode,
  after: SchemaNode,
  at: (keyword: string) => string,
  noun: Noun,
) {
  const { direction: dir, log, where } = context;
  for (const [keyword, effectOf] of Object.entries(RULES)) {
    const was = before.schema[keyword];
    const is = after.schema[keyword];
    if (was === is) continue;
    const effect = effectOf(was, is);
    const detail = `${keyword} ${show(was)} to ${show(is)}`;
    const facts = { keyword, before: was, after: is, schema: before.schema };
    if (effect === 'changes') log.add('breaking', `${dir} ${noun} changed`, at(keyword), where, detail, facts);
    else {
      const breaking = (effect === 'narrows') === (dir === 'request');
      log.add(
        breaking ? 'breaking' : 'additive',
        `${dir} ${noun} ${effect === 'narrows' ? 'narrowed' : 'widened'}`,
        at(keyword),
        where,
        detail,
        facts,
      );
    }
  }
}
