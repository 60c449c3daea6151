import { createHash } from 'node:crypto';
import pg from 'pg';

/**
 * Distinct statement texts that get a name. Kysely's `in (...)` lists make one text per list length, so the set
 * is bounded by the code, but a cap keeps a surprise (a text built from data) from filling the server's memory:
 * past it, statements run unnamed as before.
 */
const MAX_NAMED = 500;
const names = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `k_${createHash('sha1').update(text).digest('hex')}`;
    names.set(text, name);
  }
  return name;
}

/** What the pool passes on to each client it makes (pg.Pool hands its whole config to the Client's constructor). */
export interface PreparingOptions {
  /** Default true. */
  namedStatements?: boolean;
}

/**
 * A pg client that runs every parameterised statement as a named prepared statement. pg (and so Kysely) sends
 * statements unnamed, which makes PostgreSQL parse and plan each one anew: for the availability snapshot that
 * planning took as long as running it. Named, a statement is parsed once per connection, and PostgreSQL may keep
 * its plan. pg tracks which names each connection has parsed; no library offers this for Kysely's pg driver.
 */
export class PreparingClient extends pg.Client {
  /** Every client open in this process, so a shutdown past its deadline can cut them all. */
  static readonly #open = new Set<PreparingClient>();
  /**
   * False (DATABASE_PREPARED_STATEMENTS=false): every statement unnamed, as pg sends it. A transaction pooler
   * without prepared-statement support (PgBouncer before 1.21) may run a statement's Bind on a server connection
   * that never saw its Parse; the timeout and shutdown handling below stay either way.
   */
  readonly #named: boolean;

  constructor(config?: string | (pg.ClientConfig & PreparingOptions)) {
    super(config);
    this.#named = typeof config === 'object' ? config.namedStatements !== false : true;
    PreparingClient.#open.add(this);
    PreparingClient.#open.add(this);
    this.once('end', () => PreparingClient.#open.delete(this));
  }

  /** Destroys every connection at once, without the goodbye a frozen peer would never answer. */
  static destroyAll(): void {
    for (const client of PreparingClient.#open) client.#destroy();
  }

  // The one signature pg's overloads share; Kysely calls query(text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name =
      this.#named && typeof text === 'string' && args.length === 2 && Array.isArray(values) && values.length > 0
        ? statementName(text)
        : undefined;
    const query = super.query as (...a: unknown[]) => unknown;
    const result = name ? query.call(this, { name, text, values }) : query.apply(this, args);
    // pg's query_timeout fails the query but keeps the connection, whose answer may still arrive and be read
    // as the next query's: a connection whose round trip timed out is destroyed, and the pool drops it on release.
    if (result instanceof Promise)
      result.catch((error: unknown) => {
        if (error instanceof Error && error.message === 'Query read timeout') this.#destroy();
      });
    return result as never;
  }

  #destroy(): void {
    // end() marks the client as ending (the pool will not reuse it) and, with a query in flight, destroys the socket.
    void this.end().catch(() => undefined);
    (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
  }
}
