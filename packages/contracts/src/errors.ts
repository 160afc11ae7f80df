import { z } from 'zod';

/** Stable error codes clients branch on (DESIGN §3). */
export const ERROR_CODES = [
  'validation',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'csrf',
  'rate_limited',
  'locked',
  'invalid_credentials',
  'account_not_found',
  'provider_account',
  'account_exists',
  'invalid_code',
  'file_size',
  'file_missing',
  'file_type',
  'empty_fields',
  'signup_closed',
  'psa_bad_keys',
  'psa_not_found',
  'psa_validation',
  'psa_rate_limited',
  'psa_unavailable',
  'psa_not_configured',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'internal',
] as const;
export type TErrorCode = (typeof ERROR_CODES)[number];

/** application/problem+json body. */
export const ZProblem = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.string(),
  code: z.string(),
  requestId: z.string(),
  invalidParams: z.array(z.object({ name: z.string(), reason: z.string() })).optional(),
  flags: z.record(z.string(), z.unknown()).optional(),
});
export type TProblem = z.infer<typeof ZProblem>;
