import type { CompiledQuery, Compilable } from 'kysely';
import type { PlatformDb } from './database';

/**
 * A query every page asks (the site for a host, the site's content stamp), built and compiled once
 * per database instead of on each call: Kysely's builders and compiler cost ~20 µs a query here,
 * as much as SQLite running it from its kept statement. `build` is given `sentinel` for the query's
 * one value, which may appear in it several times and must be its only parameter.
 */
export function compiledOnce<P, R>(build: (db: PlatformDb, value: P) => Compilable<R>, sentinel: P) {
  const compiled = new WeakMap<PlatformDb, CompiledQuery<R>>();
  return async (db: PlatformDb, value: P): Promise<R[]> => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db, sentinel).compile();
      if (!query.parameters.length || query.parameters.some((parameter) => parameter !== sentinel))
        throw new Error(`A query compiled once takes exactly one value: ${query.sql}`);
      compiled.set(db, query);
    }
    const { rows } = await db.executeQuery<R>({ ...query, parameters: query.parameters.map(() => value) });
    return rows;
  };
}
