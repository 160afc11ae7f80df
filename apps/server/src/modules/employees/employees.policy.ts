import type { TPermissionMap } from '@switchboard/contracts';

/**
 * Whether a change would leave the MSP with no active person able to manage roles: the target
 * holds roleManagement now, will not afterwards, and nobody else active holds it. Without such a
 * person nobody can ever hand out roles again (issue #8: no admin locks the MSP out).
 */
export function wouldRemoveLastRoleManager(input: { holdsNow: boolean; holdsAfter: boolean; otherActiveRoleManagers: number }): boolean {
  return input.holdsNow && !input.holdsAfter && input.otherActiveRoleManagers === 0;
}

export const holdsRoleManagement = (permissions: Partial<TPermissionMap> | null | undefined): boolean => permissions?.roleManagement === true;

/**
 * Decision 025: whether this user counts as someone able to manage roles: an active technician who can sign in (a
 * password; MSP users have no other way in) and whose role grants it. `countsAsRoleManagerSql` is the same rule in SQL.
 */
export function countsAsRoleManager(user: { kind: string; isActive: boolean; passwordHash: string | null }, permissions: Partial<TPermissionMap> | null | undefined): boolean {
  return user.kind === 'technician' && user.isActive && user.passwordHash !== null && holdsRoleManagement(permissions);
}
