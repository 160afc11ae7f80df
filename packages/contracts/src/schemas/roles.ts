import { z } from 'zod';
import { ZPermissionMap } from './common';

export const ROLE_NAME_MAX = 60;

export const ZRoleName = z.string().trim().min(1).max(ROLE_NAME_MAX);

/** A role as A-013 lists it. */
export const ZRole = z.object({
  id: z.uuid(),
  name: z.string(),
  custom: z.boolean(),
  permissions: ZPermissionMap,
  mspCustomDomain: z.string(),
});
export type TRole = z.infer<typeof ZRole>;

export const ZRoleList = z.object({ roles: z.array(ZRole) });
export type TRoleList = z.infer<typeof ZRoleList>;

/** A-061 body: create when `id` is absent, edit when present; a clone is a create with a computed name. */
export const ZSaveRoleBody = z.object({
  id: z.uuid().optional(),
  name: ZRoleName,
  permissions: ZPermissionMap,
  custom: z.boolean().optional(),
  mspCustomDomain: z.string().trim().min(1).max(63),
});
export type TSaveRoleBody = z.infer<typeof ZSaveRoleBody>;

export const ZSaveRoleResponse = z.object({ role: ZRole });
export type TSaveRoleResponse = z.infer<typeof ZSaveRoleResponse>;

export const ZDeleteRoleQuery = z.object({ id: z.uuid() });
export const ZDeleteRoleResponse = z.object({ deleted: z.literal(true) });

/**
 * The clone name for the n-th clone: "{base} - Clone {n}", the base shortened and ended with "…" when the whole would
 * pass ROLE_NAME_MAX (review s26 #3: a base of 51–60 characters gave a name the server must refuse). Cut on a whole
 * character (never half of a surrogate pair), and without the spaces the cut leaves at its end.
 */
function cloneNameFor(base: string, n: string): string {
  const suffix = ` - Clone ${n}`;
  const room = ROLE_NAME_MAX - suffix.length;
  if (base.length <= room) return `${base}${suffix}`;
  let cut = '';
  for (const character of base) {
    if (cut.length + character.length > room - 1) break;
    cut += character;
  }
  return `${cut.trimEnd()}…${suffix}`;
}

/**
 * Spec 02 §4: a clone is named "{base} - Clone {n}", n = existing clones of that base + 1 (a base too long for the
 * suffix is shortened, see cloneNameFor). When a deleted clone leaves a gap that would make n collide with a surviving
 * clone, n is raised until the name is free, because role names are unique per MSP.
 */
export function cloneRoleName(base: string, existingNames: string[]): string {
  const trimmedBase = base.trim();
  const isCloneOfBase = (name: string): boolean => {
    const match = / - Clone (\d+)$/i.exec(name);
    return match?.[1] !== undefined && cloneNameFor(trimmedBase, match[1]).toLowerCase() === name.toLowerCase();
  };
  const takenNames = new Set(existingNames.map((name) => name.trim().toLowerCase()));
  const existingCloneCount = existingNames.filter((name) => isCloneOfBase(name.trim())).length;
  let n = existingCloneCount + 1;
  while (takenNames.has(cloneNameFor(trimmedBase, String(n)).toLowerCase())) n += 1;
  return cloneNameFor(trimmedBase, String(n));
}
