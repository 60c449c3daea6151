import { Stream } from 'node:stream';
import { type AppRoute, type AppRouter, isAppRoute, validateResponse } from '@ts-rest/core';

type Handler = (args: unknown) => Promise<{ status: number; body: unknown }>;

/** The answer of a handler whose schema, parsing it, would change what is sent: a bug of the mapper. */
export class ResponseShapeError extends Error {
  constructor(route: AppRoute, status: number, sent: string, parsed: string) {
    super(
      `${route.method} ${route.path} answered ${status} with a body its schema changes when parsing it ` +
        `(a key the schema does not have, keys in another order, or a transform):\nsent:   ${sent}\nparsed: ${parsed}`,
    );
    this.name = 'ResponseShapeError';
  }
}

/**
 * Every handler of `router` wrapped so that its answer is checked against the contract: the body must parse
 * (ts-rest's response validation, which throws ResponseValidationError), and parsing must change nothing, to
 * the byte of its JSON. An app that sends handlers' bodies unparsed, as production does (docs/decisions.md,
 * "Response validation"), then sends exactly what validation would have sent wherever the tests have been.
 */
export function checkResponses<T>(contract: AppRouter, router: T): T {
  const checked: Record<string, unknown> = {};
  for (const [key, implementation] of Object.entries(router as Record<string, unknown>)) {
    const schema = contract[key];
    if (!schema) throw new Error(`No contract for router key ${key}`);
    checked[key] = isAppRoute(schema)
      ? checkRoute(schema, implementation as Handler | { handler: Handler })
      : checkResponses(schema, implementation);
  }
  return checked as T;
}

function checkRoute(route: AppRoute, implementation: Handler | { handler: Handler }) {
  const handler = typeof implementation === 'function' ? implementation : implementation.handler;
  const checkedHandler: Handler = async (args) => {
    const result = await handler(args);
    // ts-rest pipes a stream as it is, without validation.
    if (result.body instanceof Stream) return result;
    const parsed = validateResponse({
      appRoute: route,
      response: { status: Number(result.status), body: result.body },
    });
    const [sent, reparsed] = [JSON.stringify(result.body), JSON.stringify(parsed.body)];
    if (sent !== reparsed) throw new ResponseShapeError(route, Number(result.status), sent, reparsed);
    return result;
  };
  return typeof implementation === 'function' ? checkedHandler : { ...implementation, handler: checkedHandler };
}
