import type { TPermissionMap } from '@switchboard/contracts';
import type { TDatabase } from '@switchboard/db';
import { lockForMsp } from '../../lib/advisory-lock';
import { findUserWithTenant } from '../auth/auth.repository';
import { countActiveRoleManagersOutsideRole, findRole } from '../roles/roles.repository';
import { countsAsRoleManager, holdsRoleManagement, wouldRemoveLastRoleManager } from './employees.policy';
import { countOtherActiveRoleManagers } from './employees.repository';

/** A change that may take Role management away from someone (decision 025). */
export type TRoleManagerChange =
  | { kind: 'userDeactivated'; userId: string }
  | { kind: 'userRoleChanged'; userId: string; roleId: string }
  | { kind: 'rolePermissionsChanged'; roleId: string; permissions: Partial<TPermissionMap> };

/**
 * Decision 025, checked where it cannot be raced: call it inside the change's own transaction, before its write. It
 * takes the MSP's role-manager lock (a transaction-level advisory lock, held until commit), so two such changes of one
 * MSP run one after the other, and reads who holds Role management only then, the other change's commit included.
 * Answers false when the change would leave nobody who can sign in and manage roles (active technicians with a password).
 */
export async function leavesARoleManager(tx: TDatabase, mspId: string, change: TRoleManagerChange): Promise<boolean> {
  await lockForMsp(tx, 'role-managers', mspId);
  if (change.kind === 'rolePermissionsChanged') {
    const role = await findRole(tx, mspId, change.roleId);
    if (!holdsRoleManagement(role?.permissions) || holdsRoleManagement(change.permissions)) return true;
    return (await countActiveRoleManagersOutsideRole(tx, mspId, change.roleId)) > 0;
  }
  const target = await findUserWithTenant(tx, mspId, change.userId);
  // Someone who cannot sign in (inactive, no password yet, a client) holds nothing that counts; a user gone is the caller's not-found.
  const holdsNow = target !== undefined && countsAsRoleManager(target.user, target.role?.permissions);
  const holdsAfter = change.kind === 'userRoleChanged' && holdsRoleManagement((await findRole(tx, mspId, change.roleId))?.permissions);
  if (!holdsNow || holdsAfter) return true;
  return !wouldRemoveLastRoleManager({ holdsNow, holdsAfter, otherActiveRoleManagers: await countOtherActiveRoleManagers(tx, mspId, change.userId) });
}
