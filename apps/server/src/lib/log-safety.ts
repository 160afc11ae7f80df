/**
 * Logs carry no personal data or secrets (issue #11): no SQL parameters (drizzle puts them in its
 * error message), no e-mail addresses (SMTP and PostgreSQL error details quote them), no long
 * token-like strings. Request ids, error codes, constraint names and the SQL text itself stay.
 */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g;
/**
 * Hex or base64url runs of 32+ characters: session tokens, their SHA-256, bootstrap tokens, keys. The whole run, bounded
 * by lookarounds rather than \b: a base64url token may start or end with "-", where \b finds no boundary.
 */
const TOKEN_LIKE = /(?<![\w-])[\w-]{32,}(?![\w-])/g;
/** Six digits on their own: what a mailed 2FA or reset code looks like. */
const SIX_DIGITS = /\b\d{6}\b/g;

/** Removes e-mail addresses, token-like strings, six-digit codes and anything after "params:". */
export function scrubForLog(text: string): string {
  const withoutParams = text.replace(/\bparams:[\s\S]*$/m, 'params: [not logged]');
  return withoutParams.replace(EMAIL, '[email]').replace(TOKEN_LIKE, '[token]').replace(SIX_DIGITS, '[digits]');
}

/** Fields of a driver error that name what failed without quoting the data. */
const SAFE_ERROR_FIELDS = ['code', 'severity', 'routine', 'table', 'column', 'constraint', 'schema', 'statusCode', 'errno', 'syscall'] as const;

interface TLoggedError {
  type: string;
  message: string;
  stack: string;
  query?: string;
  cause?: TLoggedError;
  [field: string]: unknown;
}

/** The pino `err` serializer: type, scrubbed message and stack, safe driver fields, causes (3 deep). */
export function safeErrorForLog(error: unknown, depth = 0): TLoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: scrubForLog(String(error)), stack: '' };
  const logged: TLoggedError = { type: error.name, message: scrubForLog(error.message), stack: scrubForLog(error.stack ?? '') };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of SAFE_ERROR_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') logged[field] = typeof value === 'string' ? scrubForLog(value) : value;
  }
  // DrizzleQueryError: the statement with its $n placeholders is useful; its params are not logged.
  if (typeof fields.query === 'string') logged.query = scrubForLog(fields.query.slice(0, 500));
  if (error.cause !== undefined && depth < 3) logged.cause = safeErrorForLog(error.cause, depth + 1);
  return logged;
}
