import { isDeepStrictEqual } from 'node:util';
import { compareContent, schemaOf } from './compare-content.js';
import type { OperationContext } from './compare-operation.js';
import { compareSchemas } from './compare-schema.js';
import { componentName, follow, isProse, type Json } from './resolve.js';

const COMPARED = new Set(['headers', 'content']);

/**
 * The statuses of an operation: one removed is breaking (a client's handler for it is never called, a generated
 * client's type for it disappears), one added is additive (a new situation). For a status in both, its headers and
 * bodies are compared as answers.
 */
export function compareResponses(context: OperationContext, anchor: string, before: Json, after: Json) {
  const { log } = context;
  for (const status of Object.keys(before)) {
    const where = `${anchor} ${status}`;
    if (!(status in after)) {
      log.add('breaking', 'status removed', where, anchor);
      continue;
    }
    const was = follow(context.before, before[status]).value as Json;
    const is = follow(context.after, after[status]).value as Json;
    for (const key of new Set([...Object.keys(was), ...Object.keys(is)])) {
      if (!COMPARED.has(key) && !isProse(key) && !isDeepStrictEqual(was[key], is[key])) {
        log.add('breaking', 'response changed', where, where, `keyword ${key}`);
      }
    }
    compareHeaders(context, where, (was.headers ?? {}) as Json, (is.headers ?? {}) as Json);
    compareContent(context, `${where} body`, 'response', where, was.content, is.content);
  }
  for (const status of Object.keys(after).filter((one) => !(one in before)))
    log.add('additive', 'status added', `${anchor} ${status}`, anchor);
}

/** Headers of an answer: one removed, or no longer always sent, is breaking; one added is additive. */
function compareHeaders(context: OperationContext, where: string, before: Json, after: Json) {
  const { log } = context;
  const find = (headers: Json, name: string) =>
    Object.keys(headers).find((other) => other.toLowerCase() === name.toLowerCase());
  for (const name of Object.keys(before)) {
    const subject = `${where} header ${name}`;
    // A header defined once in components.headers is one place, whichever answers carry it.
    const shared = componentName(before[name], 'headers') ?? componentName(after[find(after, name) ?? ''], 'headers');
    const other = find(after, name);
    if (!other) {
      log.add('breaking', 'response header removed', subject, where);
      continue;
    }
    const was = follow(context.before, before[name]).value as Json;
    const is = follow(context.after, after[other]).value as Json;
    if (Boolean(was.required) !== Boolean(is.required)) {
      log.add(
        is.required ? 'additive' : 'breaking',
        `response header made ${is.required ? 'required' : 'optional'}`,
        subject,
        where,
      );
    }
    compareSchemas(
      { ...context, direction: 'response', where },
      schemaOf(was),
      schemaOf(is),
      shared ? `header ${shared}` : subject,
      'header',
    );
  }
  for (const name of Object.keys(after).filter((one) => !find(before, one))) {
    log.add('additive', 'response header added', `${where} header ${name}`, where);
  }
}
