import { type Compilable, CompiledQuery } from 'kysely';
import type { Db } from './connect.js';

/** Stands for a named parameter while the query is built once; each run puts the call's value in its place. */
class Slot {
  constructor(readonly name: string) {}
}

interface Compiled {
  sql: string;
  parameters: readonly unknown[];
}

/**
 * A read written with Kysely, built and compiled once per database and then run with each call's parameters.
 * Building and compiling cost more than the round trip's own work on the hot reads (docs/performance.md,
 * "Hot path"), and the same SQL string each time also spares the prepared-statement lookup a hash of new text.
 * The builder is handed stand-ins, never values, so it cannot branch on them: a query whose shape depends on its
 * input is two compiled queries. Each parameter must reach the query as a plain value (where, limit, offset...);
 * one used otherwise (in a computation, as SQL text) is refused when the query is compiled.
 * Kysely has no such API, and no maintained library adds one for its PostgreSQL dialect.
 */
export function compiledQuery<P extends object, R>(build: (db: Db, params: P) => Compilable<R>) {
  const byDb = new WeakMap<Db, Compiled>();
  return async (db: Db, params: P): Promise<R[]> => {
    let compiled = byDb.get(db);
    if (!compiled) byDb.set(db, (compiled = compile(db, build)));
    const parameters = compiled.parameters.map((p) =>
      p instanceof Slot ? (params as Record<string, unknown>)[p.name] : p,
    );
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters));
    return rows;
  };
}

function compile<P extends object, R>(db: Db, build: (db: Db, params: P) => Compilable<R>) {
  const used = new Set<string>();
  const standIns = new Proxy({} as P, {
    get: (_target, name) => {
      used.add(String(name));
      return new Slot(String(name));
    },
  });
  const { sql, parameters } = build(db, standIns).compile();
  for (const name of used) {
    if (!parameters.some((p) => p instanceof Slot && p.name === name))
      throw new Error(`compiledQuery: parameter ${name} does not reach the query as a value`);
  }
  return { sql, parameters };
}
