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
