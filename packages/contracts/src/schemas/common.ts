import { z } from 'zod';
import { PERMISSIONS, type TPermission, type TPermissionMap } from '../permissions';
import { MESSAGES } from '../messages';
import { hasControlCharacters } from '../validation';

/**
 * The schemas the other schema files build on. Every zod schema lives under schemas/, so the
 * browser can import the plain half of the contracts (strings, constants, rules) without zod.
 */

const refuseControlCharacters = (value: string) => !hasControlCharacters(value);

export const ZEmail = z.string().trim().max(254).refine(refuseControlCharacters, MESSAGES.controlCharacters);
/** An MSP value in a path, query or body: refused before any query when it holds control characters. */
export const ZCustomDomain = z.string().trim().toLowerCase().min(1).max(63).refine(refuseControlCharacters, MESSAGES.controlCharacters);
/** Bounded free text for names and similar fields. */
export const ZShortText = z.string().trim().max(200);

export const ZPermission = z.enum(PERMISSIONS);

/** A role's permission map: every flag present, each a boolean. */
export const ZPermissionMap: z.ZodType<TPermissionMap> = z.object(
  Object.fromEntries(PERMISSIONS.map((p) => [p, z.boolean()])) as Record<TPermission, z.ZodBoolean>,
);

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
