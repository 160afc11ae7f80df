/** The PostgreSQL error behind a failed query (code and constraint), however the driver wrapped it. */
function findDatabaseError(error: unknown): { code: string; constraint: string | undefined } | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && typeof current.code === 'string' && /^[0-9A-Z]{5}$/.test(current.code)) {
      return { code: current.code, constraint: 'constraint' in current && typeof current.constraint === 'string' ? current.constraint : undefined };
    }
    current = 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/** True when a query failed on a unique index (PostgreSQL 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return findDatabaseError(error)?.code === '23505';
}

/**
 * True when a query failed on a foreign key: an insert or update named a row that is gone
 * (23503), or a delete hit a row still referenced (23503, or 23001 under ON DELETE RESTRICT).
 * With `constraint`, only that key counts.
 */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  const found = findDatabaseError(error);
  return (found?.code === '23503' || found?.code === '23001') && (constraint === undefined || found.constraint === constraint);
}
