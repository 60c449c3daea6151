import { isDeepStrictEqual } from 'node:util';
import { BREAKING_RULES } from './breaking-rules.js';
import { ChangeLog, type Change } from './change-log.js';
import { compareOperation, type OperationContext, type OperationSide } from './compare-operation.js';
import { follow, isProse, type Json } from './resolve.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Top-level keys compared below, or prose (info: its version is the label, not the content). */
const TOP_LEVEL = new Set([
  'openapi',
  'info',
  'servers',
  'tags',
  'externalDocs',
  'paths',
  'components',
  'security',
  'x-webhooks',
  'webhooks',
]);

/**
 * Every change from one OpenAPI 3 document to the next that a partner or a client generated from the document
 * would notice, each classified breaking or additive (prose is not listed), one per place it was made.
 *
 * Written for this project rather than taken from a diff library: api-smart-diff 1.0.6 (used before) calls a
 * response field's type change (integer to string) and a narrowed enum of an answer non-breaking, never compares
 * `x-webhooks`, and names each change by its inlined JSON path, once per operation; oasdiff is a Go program.
 */
export function diffContract(before: Json, after: Json): Change[] {
  const log = new ChangeLog();
  const context: OperationContext = { before, after, log, renames: new Map() };
  if (before.openapi !== after.openapi)
    log.add(
      'breaking',
      'OpenAPI version changed',
      'document',
      'document',
      `${String(before.openapi)} to ${String(after.openapi)}`,
    );
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (!TOP_LEVEL.has(key) && !isProse(key) && !isDeepStrictEqual(before[key], after[key])) {
      log.add('breaking', 'document changed', 'document', 'document', `keyword ${key}`);
    }
  }
  comparePaths(context);
  compareWebhooks(context);
  compareComponents(context);
  return log.list().map(({ facts, ...change }) => {
    if (change.severity !== 'breaking') return change;
    const rule = BREAKING_RULES.find((one) => one.matches(facts));
    return rule ? { ...change, severity: 'additive' as const, rule: rule.reason } : change;
  });
}

const template = (path: string) => path.replace(/\{[^}]*\}/g, '{}');

function comparePaths(context: OperationContext) {
  const paths = (document: Json) =>
    new Map(
      Object.entries((document.paths ?? {}) as Json).map(([path, item]) => [
        template(path),
        { path, item: follow(document, item).value as Json },
      ]),
    );
  const before = paths(context.before);
  const after = paths(context.after);
  for (const [key, was] of before) {
    const is = after.get(key);
    compareItem(context, was.item, is?.item, (method) => `${method.toUpperCase()} ${was.path}`, false);
  }
  for (const [key, is] of after) {
    if (!before.has(key))
      compareItem(context, undefined, is.item, (method) => `${method.toUpperCase()} ${is.path}`, false);
  }
}

/** Webhooks as OpenAPI 3.0 writes them (`x-webhooks`, Redocly's extension) or 3.1 (`webhooks`). */
function compareWebhooks(context: OperationContext) {
  const webhooks = (document: Json) => (document['x-webhooks'] ?? document.webhooks ?? {}) as Json;
  const before = webhooks(context.before);
  const after = webhooks(context.after);
  const anchor = (name: string) => (method: string) =>
    method === 'post' ? `webhook ${name}` : `webhook ${name} ${method.toUpperCase()}`;
  for (const name of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = before[name] === undefined ? undefined : (follow(context.before, before[name]).value as Json);
    const is = after[name] === undefined ? undefined : (follow(context.after, after[name]).value as Json);
    compareItem(context, was, is, anchor(name), true);
  }
}

function compareItem(
  context: OperationContext,
  before: Json | undefined,
  after: Json | undefined,
  anchorOf: (method: string) => string,
  webhook: boolean,
) {
  const noun = webhook ? 'webhook' : 'operation';
  for (const method of METHODS) {
    const was = before?.[method] as Json | undefined;
    const is = after?.[method] as Json | undefined;
    const anchor = anchorOf(method);
    if (was && !is) context.log.add('breaking', `${noun} removed`, anchor, anchor);
    else if (!was && is) context.log.add('additive', `${noun} added`, anchor, anchor);
    else if (was && is)
      compareOperation(context, anchor, webhook, side(context.before, before!, was), side(context.after, after!, is));
  }
}

const side = (document: Json, item: Json, operation: Json): OperationSide => ({
  operation,
  pathParameters: (item.parameters as unknown[] | undefined) ?? [],
  security: (operation.security ?? document.security ?? []) as unknown[],
});

/**
 * Named schemas are the type names of every generated client: one removed or renamed breaks code that names it,
 * even when the wire is the same. A rename is a name that left while another stood at the same place.
 */
function compareComponents(context: OperationContext) {
  const { log } = context;
  const schemas = (document: Json) => Object.keys((document.components as Json | undefined)?.schemas ?? {});
  const before = schemas(context.before);
  const after = schemas(context.after);
  const targets = new Set<string>();
  for (const name of before.filter((one) => !after.includes(one))) {
    const renamed = [...(context.renames.get(name) ?? [])].filter((other) => !before.includes(other)).sort();
    if (renamed.length > 0) {
      renamed.forEach((other) => targets.add(other));
      log.add('breaking', 'component schema renamed', `${name} to ${renamed.join(', ')}`, 'components.schemas');
    } else log.add('breaking', 'component schema removed', name, 'components.schemas');
  }
  for (const name of after.filter((one) => !before.includes(one) && !targets.has(one)))
    log.add('additive', 'component schema added', name, 'components.schemas');

  const schemes = (document: Json) =>
    ((document.components as Json | undefined)?.securitySchemes ?? {}) as Record<string, Json>;
  const schemesBefore = schemes(context.before);
  const schemesAfter = schemes(context.after);
  const plain = (scheme: Json) => Object.fromEntries(Object.entries(scheme).filter(([key]) => !isProse(key)));
  for (const [name, scheme] of Object.entries(schemesBefore)) {
    if (!schemesAfter[name]) log.add('breaking', 'security scheme removed', name, 'components.securitySchemes');
    else if (!isDeepStrictEqual(plain(scheme), plain(schemesAfter[name])))
      log.add('breaking', 'security scheme changed', name, 'components.securitySchemes');
  }
  for (const name of Object.keys(schemesAfter).filter((one) => !schemesBefore[one]))
    log.add('additive', 'security scheme added', name, 'components.securitySchemes');
}
