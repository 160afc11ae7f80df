export type TPsaErrorKind = 'bad_keys' | 'not_found' | 'validation' | 'rate_limited' | 'unavailable' | 'not_supported';

export interface TPsaFieldMessage {
  field: string | null;
  message: string;
}

export interface TPsaErrorOptions {
  status?: number | null;
  fieldMessages?: TPsaFieldMessage[];
  retryAfterSeconds?: number | null;
  psaCode?: string | null;
  cause?: unknown;
}

/** The one error every adapter throws: its kind tells the UI what to explain, never the keys. */
export class PsaError extends Error {
  readonly kind: TPsaErrorKind;
  readonly status: number | null;
  readonly fieldMessages: TPsaFieldMessage[];
  readonly retryAfterSeconds: number | null;
  readonly psaCode: string | null;

  constructor(kind: TPsaErrorKind, message: string, options: TPsaErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PsaError';
    this.kind = kind;
    this.status = options.status ?? null;
    this.fieldMessages = options.fieldMessages ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds ?? null;
    this.psaCode = options.psaCode ?? null;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      message: this.message,
      status: this.status,
      psaCode: this.psaCode,
      fieldMessages: this.fieldMessages,
      retryAfterSeconds: this.retryAfterSeconds,
    };
  }
}

export function isPsaError(value: unknown): value is PsaError {
  return value instanceof PsaError;
}

/** Removes every occurrence of the given secrets from a text that may end up in a log or an error. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) {
    if (secret.length >= 4) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}
