import type { z } from 'zod';
import { PsaError } from '../errors';

/** Validates a PSA payload; a shape we do not understand is the PSA misbehaving, reported as unavailable. */
export function parsePsaPayload<TSchema extends z.ZodType>(schema: TSchema, value: unknown, what: string): z.infer<TSchema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown shape';
    throw new PsaError('unavailable', `The PSA sent an unexpected ${what} (${where}).`);
  }
  return result.data;
}

export function appendQuery(url: string, query: Record<string, string | number | undefined>): string {
  const target = new URL(url);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) target.searchParams.set(key, String(value));
  }
  return target.toString();
}

/** Follows a paging link only on the PSA's own origin, so credentials are never sent elsewhere. */
export function resolveSameOrigin(link: string, base: string): string {
  const resolved = new URL(link, base);
  if (resolved.origin !== new URL(base).origin) {
    throw new PsaError('unavailable', 'The PSA sent a paging link to another host; paging stopped.');
  }
  return resolved.toString();
}
