import type { OperationContext } from './compare-operation.js';
import { compareSchemas, type Direction } from './compare-schema.js';
import { follow, isObject, type Json } from './resolve.js';

export const schemaOf = (value: Json) =>
  value.schema ?? Object.values((value.content ?? {}) as Record<string, { schema?: unknown }>)[0]?.schema;

/** A request body (what the server reads) or a webhook's payload (what the server sends, compared as an answer). */
export function compareBody(
  context: OperationContext,
  anchor: string,
  direction: Direction,
  where: string,
  rawBefore: unknown,
  rawAfter: unknown,
) {
  const { log } = context;
  const noun = direction === 'request' ? 'request body' : 'webhook payload';
  const before = rawBefore === undefined ? undefined : (follow(context.before, rawBefore).value as Json);
  const after = rawAfter === undefined ? undefined : (follow(context.after, rawAfter).value as Json);
  if (!before && !after) return;
  if (!after) return log.add('breaking', `${noun} removed`, anchor, where);
  if (!before) {
    const required = direction === 'request' && after.required === true;
    return log.add(
      required ? 'breaking' : 'additive',
      required ? `${noun} added as required` : `${noun} added`,
      anchor,
      where,
    );
  }
  if (direction === 'request' && Boolean(before.required) !== Boolean(after.required)) {
    log.add(
      after.required ? 'breaking' : 'additive',
      `request body made ${after.required ? 'required' : 'optional'}`,
      anchor,
      where,
    );
  }
  compareContent(
    context,
    `${anchor} ${direction === 'request' ? 'request body' : 'payload'}`,
    direction,
    where,
    before.content,
    after.content,
  );
}

/** The media types of a body: one removed breaks, one added is additive; the schemas of those in both are compared. */
export function compareContent(
  context: OperationContext,
  subject: string,
  direction: Direction,
  where: string,
  rawBefore: unknown,
  rawAfter: unknown,
) {
  const before = (isObject(rawBefore) ? rawBefore : {}) as Record<string, Json>;
  const after = (isObject(rawAfter) ? rawAfter : {}) as Record<string, Json>;
  for (const type of Object.keys(before)) {
    if (!(type in after)) context.log.add('breaking', `${direction} media type removed`, subject, where, type);
    else compareSchemas({ ...context, direction, where }, before[type]!.schema, after[type]!.schema, subject, 'body');
  }
  for (const type of Object.keys(after).filter((one) => !(one in before))) {
    context.log.add('additive', `${direction} media type added`, subject, where, type);
  }
}
