import { isDeepStrictEqual } from 'node:util';
import { compareSchemas, type Direction, type SchemaContext } from './compare-schema.js';
import { compareResponses } from './compare-responses.js';
import { compareBody, schemaOf } from './compare-content.js';
import { componentName, follow, isProse, type Json } from './resolve.js';

export type OperationContext = Omit<SchemaContext, 'direction' | 'where'>;

/** An operation of `paths`, or a webhook of `x-webhooks` (what the server sends: its headers and body are an answer). */
export interface OperationSide {
  operation: Json;
  /** The path item's parameters, which the operation's own override by name and place. */
  pathParameters: unknown[];
  /** The operation's security, or the document's when it has none of its own. */
  security: unknown[];
}

const COMPARED = new Set(['operationId', 'tags', 'parameters', 'requestBody', 'responses', 'deprecated', 'security']);

/** `anchor` names the operation in every id and place: `POST /v1/venues/{venue_id}/bookings`, `webhook booking.created`. */
export function compareOperation(
  context: OperationContext,
  anchor: string,
  webhook: boolean,
  before: OperationSide,
  after: OperationSide,
) {
  const { log } = context;
  const was = before.operation;
  const is = after.operation;
  if (was.operationId !== is.operationId) {
    const name = (operation: Json) => (typeof operation.operationId === 'string' ? operation.operationId : 'none');
    log.add('breaking', 'operationId renamed', anchor, anchor, `${name(was)} to ${name(is)}`);
  }
  const tags = (operation: Json) => [...((operation.tags as string[] | undefined) ?? [])].sort().join(', ') || 'none';
  if (tags(was) !== tags(is))
    log.add('breaking', 'operation tags changed', anchor, anchor, `${tags(was)} to ${tags(is)}`);
  if (Boolean(was.deprecated) !== Boolean(is.deprecated)) {
    log.add('additive', is.deprecated ? 'operation deprecated' : 'operation no longer deprecated', anchor, anchor);
  }
  for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (!COMPARED.has(key) && !isProse(key) && key !== 'servers' && !isDeepStrictEqual(was[key], is[key])) {
      log.add('breaking', 'operation changed', anchor, anchor, `keyword ${key}`);
    }
  }
  if (!webhook) compareSecurity(context, anchor, before.security, after.security);
  compareParameters(
    context,
    anchor,
    webhook ? 'response' : 'request',
    parametersOf(context.before, before),
    parametersOf(context.after, after),
  );
  if (webhook)
    compareBody(
      context,
      `webhook ${anchor.replace(/^webhook /, '')}`,
      'response',
      anchor,
      was.requestBody,
      is.requestBody,
    );
  else {
    compareBody(context, anchor, 'request', anchor, was.requestBody, is.requestBody);
    compareResponses(context, anchor, (was.responses ?? {}) as Json, (is.responses ?? {}) as Json);
  }
}

/** Each alternative of a security requirement: one removed shuts its callers out; one added is another way in. */
function compareSecurity(context: OperationContext, anchor: string, before: unknown[], after: unknown[]) {
  const alternatives = (security: unknown[]) =>
    (security.length === 0 ? [{}] : security).map((requirement) => {
      const entries = Object.entries(requirement as Record<string, string[]>).map(([name, scopes]) =>
        scopes.length ? `${name}[${scopes.join(' ')}]` : name,
      );
      return entries.sort().join(' + ') || 'no authentication';
    });
  const was = alternatives(before);
  const is = alternatives(after);
  for (const alternative of was.filter((one) => !is.includes(one)))
    context.log.add('breaking', 'security requirement removed', anchor, anchor, alternative);
  for (const alternative of is.filter((one) => !was.includes(one)))
    context.log.add('additive', 'security requirement added', anchor, anchor, alternative);
}

interface Parameter {
  key: string;
  label: string;
  value: Json;
  /** Defined once in components.parameters: its schema is one place, whichever operations take it. */
  shared: boolean;
}

function parametersOf(document: Json, side: OperationSide): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const raw of [...side.pathParameters, ...((side.operation.parameters as unknown[] | undefined) ?? [])]) {
    const value = follow(document, raw).value as Json;
    const name = String(value.name);
    const place = String(value.in);
    const key = `${place} ${place === 'header' ? name.toLowerCase() : name}`;
    byKey.set(key, { key, label: `${place} ${name}`, value, shared: componentName(raw, 'parameters') !== undefined });
  }
  return [...byKey.values()];
}

const PARAMETER_COMPARED = new Set(['name', 'in', 'required', 'schema', 'content', 'deprecated']);

/** An operation's parameters (what the server reads), or a webhook's headers (what the server sends). */
function compareParameters(
  context: OperationContext,
  anchor: string,
  direction: Direction,
  before: Parameter[],
  after: Parameter[],
) {
  const { log } = context;
  const noun = direction === 'request' ? 'parameter' : 'webhook header';
  for (const parameter of before) {
    const label = `${anchor} ${parameter.label}`;
    const same = after.find((other) => other.key === parameter.key);
    if (!same) {
      log.add('breaking', `${noun} removed`, label, anchor);
      continue;
    }
    const was = parameter.value.required === true;
    const is = same.value.required === true;
    if (was !== is)
      log.add(
        is === (direction === 'request') ? 'breaking' : 'additive',
        `${noun} made ${is ? 'required' : 'optional'}`,
        label,
        anchor,
      );
    if (Boolean(parameter.value.deprecated) !== Boolean(same.value.deprecated))
      log.add('additive', `${noun} deprecation changed`, label, anchor);
    for (const key of new Set([...Object.keys(parameter.value), ...Object.keys(same.value)])) {
      if (!PARAMETER_COMPARED.has(key) && !isProse(key) && !isDeepStrictEqual(parameter.value[key], same.value[key])) {
        log.add(
          'breaking',
          `${noun} serialization changed`,
          label,
          anchor,
          `${key} ${JSON.stringify(parameter.value[key]) ?? 'unset'} to ${JSON.stringify(same.value[key]) ?? 'unset'}`,
        );
      }
    }
    const place = parameter.shared || same.shared ? parameter.label : label;
    compareSchemas(
      { ...context, direction, where: anchor },
      schemaOf(parameter.value),
      schemaOf(same.value),
      place,
      direction === 'request' ? 'parameter' : 'header',
    );
  }
  for (const parameter of after.filter((one) => !before.some((other) => other.key === one.key))) {
    const required = direction === 'request' && parameter.value.required === true;
    log.add(
      required ? 'breaking' : 'additive',
      required ? `${noun} added as required` : `${noun} added`,
      `${anchor} ${parameter.label}`,
      anchor,
    );
  }
}
