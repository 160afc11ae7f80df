import type { TDatabase } from '@switchboard/db';

/**
 * A statement prepared once per database handle and reused: node-postgres keeps a named statement
 * per pooled connection (parsed and planned once), PGlite reuses the built SQL. Either way Drizzle
 * no longer rebuilds the query on every request.
 */
export function preparedPerDatabase<TStatement>(prepare: (db: TDatabase) => TStatement): (db: TDatabase) => TStatement {
  const statements = new WeakMap<TDatabase, TStatement>();
  return (db) => {
    let statement = statements.get(db);
    if (statement === undefined) {
      statement = prepare(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
