import type { TErrorCode } from '@switchboard/contracts';
import { MESSAGES } from '@switchboard/contracts';

/**
 * The one place an error code gets its HTTP status (issue #6 §7): a code means one status, so a
 * client branching on `code` and one branching on the status never disagree. A new code needs a
 * line here (the Record type insists).
 */
export const STATUS_OF_ERROR_CODE: Record<TErrorCode, number> = {
  validation: 400,
  empty_fields: 400,
  invalid_code: 400,
  file_missing: 400,
  unauthenticated: 401,
  invalid_credentials: 401,
  forbidden: 403,
  signup_closed: 403,
  csrf: 403,
  not_found: 404,
  account_not_found: 404,
  psa_not_found: 404,
  conflict: 409,
  provider_account: 409,
  account_exists: 409,
  psa_not_configured: 409,
  file_size: 413,
  payload_too_large: 413,
  uri_too_long: 414,
  file_type: 415,
  unsupported_media_type: 415,
  psa_validation: 422,
  locked: 423,
  rate_limited: 429,
  psa_rate_limited: 429,
  internal: 500,
  psa_bad_keys: 502,
  psa_unavailable: 503,
  busy: 503,
  mail_server_unreachable: 502,
};

/** Spec UI flags the client shows (e.g. { emailCheck: true }), field problems, and a Retry-After. */
export interface TAppErrorExtra {
  flags?: Record<string, unknown>;
  invalidParams?: Array<{ name: string; reason: string }>;
  retryAfterSeconds?: number;
}

/** The one error type services throw; the error handler turns it into problem+json. */
export class AppError extends Error {
  /** Derived from the code, never chosen at the call site. */
  readonly statusCode: number;

  constructor(
    readonly code: TErrorCode,
    readonly detail: string,
    readonly extra: TAppErrorExtra = {},
  ) {
    super(detail);
    this.statusCode = STATUS_OF_ERROR_CODE[code];
  }
}

export const unauthenticated = () => new AppError('unauthenticated', MESSAGES.sessionRequired);
export const forbidden = () => new AppError('forbidden', MESSAGES.forbidden);
/** Never says whether the thing exists in another tenant (DESIGN §4). */
export const notFound = (detail: string = MESSAGES.notFound) => new AppError('not_found', detail);
export const validation = (detail: string, invalidParams?: Array<{ name: string; reason: string }>, flags?: Record<string, unknown>) =>
  new AppError('validation', detail, { ...(invalidParams ? { invalidParams } : {}), ...(flags ? { flags } : {}) });
export const conflict = (detail: string, flags?: Record<string, unknown>) => new AppError('conflict', detail, flags ? { flags } : {});
