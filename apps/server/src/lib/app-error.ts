import type { TErrorCode } from '@switchboard/contracts';
import { MESSAGES } from '@switchboard/contracts';

/** The one error type services throw; the error handler turns it into problem+json. */
export class AppError extends Error {
  constructor(
    readonly code: TErrorCode,
    readonly statusCode: number,
    readonly detail: string,
    /** Spec UI flags the client shows (e.g. { emailCheck: true }), and field problems. */
    readonly extra: { flags?: Record<string, unknown>; invalidParams?: Array<{ name: string; reason: string }>; retryAfterSeconds?: number } = {},
  ) {
    super(detail);
  }
}

export const unauthenticated = () => new AppError('unauthenticated', 401, MESSAGES.sessionRequired);
export const forbidden = () => new AppError('forbidden', 403, MESSAGES.forbidden);
/** Never says whether the thing exists in another tenant (DESIGN §4). */
export const notFound = (detail: string = MESSAGES.notFound) => new AppError('not_found', 404, detail);
export const validation = (detail: string, invalidParams?: Array<{ name: string; reason: string }>, flags?: Record<string, unknown>) =>
  new AppError('validation', 400, detail, { ...(invalidParams ? { invalidParams } : {}), ...(flags ? { flags } : {}) });
export const conflict = (detail: string, flags?: Record<string, unknown>) => new AppError('conflict', 409, detail, flags ? { flags } : {});
