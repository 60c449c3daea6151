import type { Request, RequestHandler, Response } from 'express';
import { LRUCache } from 'lru-cache';
import type { Bindings, LogFn, Logger } from 'pino';
import { redactUrl } from './redact-url.js';
import { requestIdOf } from './request-id.js';

/** What request code logs through (`req.log`): every line carries the request, and what child() bound. */
export interface RequestLogger {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  child(bindings: Bindings): RequestLogger;
}

type Source = { root: Logger; req: Request; res: Response } | { parent: LazyRequestLogger; bindings: Bindings };

/**
 * `req.log`, a pino child logger made only when a line is written through it. Most requests write only their
 * completion line, yet pino-http built two or three child loggers for each (serializing the request every time)
 * and authentication one more. Plain methods and no closures: each closure made per request costs its allocation
 * and, under tsx (which ran the server before it was compiled), a `__name` call.
 */
class LazyRequestLogger implements RequestLogger {
  #logger: Logger | undefined;

  constructor(private readonly source: Source) {}

  child(bindings: Bindings): RequestLogger {
    return new LazyRequestLogger({ parent: this, bindings });
  }

  info(...args: Parameters<LogFn>): void {
    this.logger().info(...args);
  }

  warn(...args: Parameters<LogFn>): void {
    this.logger().warn(...args);
  }

  error(...args: Parameters<LogFn>): void {
    this.logger().error(...args);
  }

  logger(): Logger {
    if (this.#logger) return this.#logger;
    const source = this.source;
    this.#logger =
      'root' in source
        ? source.root.child({ req: requestBinding(source.req, source.res) })
        : source.parent.logger().child(source.bindings);
    return this.#logger;
  }
}

/** The request as every line shows it: a key a partner put in the URL never reaches the log. */
function requestBinding(req: Request, res: Response) {
  return { method: req.method, url: redactedUrl(req.originalUrl), id: requestIdOf(res) };
}

/** URLs redacted lately: a partner polling availability asks the same few URLs over and over. */
const redactedUrls = new LRUCache<string, string>({ max: 1_000 });

function redactedUrl(url: string): string {
  let redacted = redactedUrls.get(url);
  if (redacted === undefined) redactedUrls.set(url, (redacted = redactUrl(url)));
  return redacted;
}

const STARTED = Symbol('request log: started');
const LOGGED = Symbol('request log: logged');
/**
 * The request's log state, in `res.locals` (a dictionary already) rather than on the response: a store by computed
 * key onto an object with as many properties as a response makes V8 turn it into a dictionary, which slowed every
 * later access to the response (measured: ~10% of a warm availability answer's CPU).
 */
type LogState = { [STARTED]: number; [LOGGED]?: true };
const stateOf = (res: Response) => res.locals as LogState;

/**
 * One line per request once it is answered (or its connection closed), as pino-http wrote it: the request,
 * the key, the status and headers sent, the time taken; `request errored` with an error for a 5xx.
 */
export function requestLog(logger: Logger): RequestHandler {
  function complete(res: Response, error: Error | undefined) {
    const state = stateOf(res);
    if (state[LOGGED]) return;
    state[LOGGED] = true;
    const line = {
      req: requestBinding(res.req, res),
      key_id: (res.locals as { principal?: { keyId: string } }).principal?.keyId,
      person_id: (res.locals as { dashboardActor?: { personId: string } }).dashboardActor?.personId,
      res: { statusCode: res.headersSent ? res.statusCode : null, headers: loggedHeaders(res) },
      err: error ?? (res.statusCode >= 500 ? new Error(`failed with status code ${res.statusCode}`) : undefined),
      responseTime: Date.now() - state[STARTED],
    };
    logger.info(line, line.err ? 'request errored' : 'request completed');
  }
  // Listeners shared by every request (the response is `this`), instead of three closures per request.
  function onEnd(this: Response) {
    complete(this, undefined);
  }
  function onError(this: Response, error: Error) {
    complete(this, error);
  }
  return (req, res, next) => {
    stateOf(res)[STARTED] = Date.now();
    req.log = new LazyRequestLogger({ root: logger, req, res });
    // `on`, not `once`: complete() logs once anyway, and once() wraps each listener in a closure of its own.
    res.on('finish', onEnd);
    res.on('close', onEnd);
    res.once('error', onError);
    next();
  };
}

/** The response headers as logged: a session cookie being set is a credential, so only its presence shows. */
function loggedHeaders(res: Response) {
  const headers = res.getHeaders();
  return headers['set-cookie'] === undefined ? headers : { ...headers, 'set-cookie': '[redacted]' };
}
