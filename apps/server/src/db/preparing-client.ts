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

/**
 * A pg client that runs every parameterised statement as a named prepared statement. pg (and so Kysely) sends
 * statements unnamed, which makes PostgreSQL parse and plan each one anew: for the availability snapshot that
 * planning took as long as running it. Named, a statement is parsed once per connection, and PostgreSQL may keep
 * its plan. pg tracks which names each connection has parsed; no library offers this for Kysely's pg driver.
 */
export class PreparingClient extends pg.Client {
  // The one signature pg's overloads share; Kysely calls query(text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const name =
      typeof text === 'string' && args.length === 2 && Array.isArray(values) && values.length > 0
        ? statementName(text)
        : undefined;
    const query = super.query as (...a: unknown[]) => never;
    return name ? query.call(this, { name, text, values }) : query.apply(this, args);
  }
}
