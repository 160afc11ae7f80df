import { isValidPhone, MESSAGES, PROFILE_NAME_PATTERN, type TSessionMspUser, type TTierLevel } from '@switchboard/contracts';
import { USERS_ROLE_FOREIGN_KEY } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { forbidden, notFound, validation } from '../../lib/app-error';
import { isForeignKeyViolation } from '../../lib/db-errors';
import { assertRoleManagerRemains } from '../employees/employees.service';
import { forgetCachedSessions, type TAuthContext } from '../../plugins/auth-context';
import { findUserByEmail, findUserWithTenant, updateUser, type TMspUserKind, type TUserRow } from '../auth/auth.repository';
import { assertMayActOnHolderOf, assertMayGrantRole } from '../roles/roles.policy';
import { canAccessUser, canManageUsersOfKind } from './profile.policy';
import { presentSessionMspUser } from '../auth/session-user.presenter';
import type { TRequestMeta } from '../../plugins/access';
import { findRole, type TRoleRow } from '../roles/roles.repository';

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;
type TProfileDeps = Pick<TAppDeps, 'database' | 'audit' | 'now' | 'caches'>;

export interface TUserEdit {
  email: string;
  firstName?: string | undefined;
  lastName?: string | undefined;
  phoneNumber?: string | undefined;
  roleId?: string | undefined;
  tierLevel?: TTierLevel | undefined;
}

const isSameEmail = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

const roleNotFound = () => validation(MESSAGES.notFound, [{ name: 'roleId', reason: MESSAGES.notFound }]);

const invalidField = (name: string, reason: string) => validation(reason, [{ name, reason }]);

/**
 * Checks only what the edit changes: activation keeps the PSA's names and a missing phone as '' (review s25 #2),
 * so a value sent back as it is stored is never refused. Names take letters of any language (PROFILE_NAME_PATTERN,
 * not 01 §5's sign-up NAME_PATTERN); an empty phone clears it.
 */
function validateEdit(edit: TUserEdit, stored: Pick<TUserRow, 'firstName' | 'lastName' | 'phone'>): void {
  for (const [field, value, current] of [['firstName', edit.firstName, stored.firstName], ['lastName', edit.lastName, stored.lastName]] as const) {
    if (value === undefined || value === current) continue;
    if (value === '') throw invalidField(field, MESSAGES.employee.names);
    if (!PROFILE_NAME_PATTERN.test(value)) throw invalidField(field, MESSAGES.profileNameInvalid);
  }
  const phone = edit.phoneNumber;
  if (phone !== undefined && phone !== '' && phone !== stored.phone && !isValidPhone(phone)) throw invalidField('phoneNumber', MESSAGES.employee.phone);
}

/** Reading and editing MSP users' profiles (A-005, A-006). */
export function createProfileService(deps: TProfileDeps) {
  /** one user of the caller's MSP; someone else's record needs the management permission. */
  async function getUserById(auth: TUserContext, kind: TMspUserKind, userId: string): Promise<TSessionMspUser> {
    const row = await findUserWithTenant(deps.database.db, auth.mspId, userId);
    if (!row || row.user.kind !== kind) throw notFound();
    if (!canAccessUser(auth, { id: row.user.id, kind })) throw forbidden();
    return presentSessionMspUser(row);
  }

  /**
   * A-036/A-037 (decisions #11): own names and phone; role and tier changes need the management permission; a staff
   * colleague whose role holds more than the actor's is not changed at all (decision 044).
   */
  async function editUser(auth: TUserContext, kind: TMspUserKind, edit: TUserEdit, meta: TRequestMeta): Promise<TSessionMspUser> {
    const db = deps.database.db;
    // Review s27 #4: without the management permission only one's own address can be edited; any other is answered as
    // unknown before it is looked up, so the answer never tells which addresses are users of the MSP.
    if (!canManageUsersOfKind(auth, kind) && !(auth.userKind === kind && isSameEmail(auth.email, edit.email))) throw notFound();
    const target: TUserRow | undefined = await findUserByEmail(db, auth.mspId, kind, edit.email);
    if (!target) throw notFound();
    if (!canAccessUser(auth, { id: target.id, kind })) throw notFound();
    const assertMayActOnTarget = async () => {
      const currentRole = await findRole(db, auth.mspId, target.roleId);
      if (!currentRole) throw notFound();
      assertMayActOnHolderOf(auth.permissions, currentRole);
      return currentRole;
    };
    // Decision 044: no field of a colleague on the MSP's staff changes when their role holds a permission the actor lacks
    // (names, phone and tier as much as the role). A client user's names and phone are governed by clientUserManagement
    // alone; their role, like anyone's, by both role rules below.
    const isStaffColleague = kind === 'technician' && target.id !== auth.userId;
    const colleaguesRole = isStaffColleague ? await assertMayActOnTarget() : null;
    validateEdit(edit, target);
    const isRoleChange = edit.roleId !== undefined && edit.roleId !== target.roleId;
    const isTierChange = kind === 'technician' && edit.tierLevel !== undefined && edit.tierLevel !== target.tierLevel;
    if ((isRoleChange || isTierChange) && !canManageUsersOfKind(auth, kind)) throw forbidden();
    let roleChange: { before: TRoleRow; after: TRoleRow } | null = null;
    if (isRoleChange && edit.roleId !== undefined) {
      // Review s26 #2: the role the person holds now must not outrank the actor's either, or a user manager could demote an Admin.
      const before = colleaguesRole ?? (await assertMayActOnTarget());
      const role = await findRole(db, auth.mspId, edit.roleId);
      if (!role) throw roleNotFound();
      assertMayGrantRole(auth.permissions, role);
      roleChange = { before, after: role };
    }
    const changes = {
      ...(edit.firstName !== undefined ? { firstName: edit.firstName } : {}),
      ...(edit.lastName !== undefined ? { lastName: edit.lastName } : {}),
      ...(edit.phoneNumber !== undefined ? { phone: edit.phoneNumber } : {}),
      ...(isRoleChange && edit.roleId !== undefined ? { roleId: edit.roleId } : {}),
      ...(isTierChange && edit.tierLevel !== undefined ? { tierLevel: edit.tierLevel } : {}),
    };
    try {
      await db.transaction(async (tx) => {
        // Issue #8: the last active person who can manage roles keeps that right (no MSP-wide lock-out); checked under
        // the MSP's role-manager lock, so two admins demoting each other at once cannot both pass (decision 025).
        if (isRoleChange && edit.roleId !== undefined) await assertRoleManagerRemains(tx, auth.mspId, { kind: 'userRoleChanged', userId: target.id, roleId: edit.roleId });
        await updateUser(tx, auth.mspId, target.id, { ...changes, updatedAt: deps.now() });
        await deps.audit.record(tx, {
          mspId: auth.mspId,
          actorKind: 'user',
          actorId: auth.userId,
          action: 'user.profile_edit',
          target: target.id,
          outcome: 'success',
          ...meta,
          details: { kind, fields: Object.keys(changes) },
        });
        // Review s29 #2: a new role is what a reader of the log looks for under "Roles", with what it was and what it became.
        if (roleChange) {
          await deps.audit.record(tx, {
            mspId: auth.mspId,
            actorKind: 'user',
            actorId: auth.userId,
            action: 'user.role_change',
            target: target.id,
            outcome: 'success',
            ...meta,
            details: {
              kind,
              before: { roleId: roleChange.before.id, roleName: roleChange.before.name },
              after: { roleId: roleChange.after.id, roleName: roleChange.after.name },
            },
          });
        }
      });
    } catch (error) {
      // The role was deleted after it was looked up: the same answer as a role that never existed.
      if (isForeignKeyViolation(error, USERS_ROLE_FOREIGN_KEY)) throw roleNotFound();
      throw error;
    }
    // The user's role, tier and names are in their cached sessions.
    forgetCachedSessions.ofUser(deps.caches.sessions, auth.mspId, target.id);
    const row = await findUserWithTenant(db, auth.mspId, target.id);
    if (!row) throw notFound();
    return presentSessionMspUser(row);
  }

  return { getUserById, editUser };
}
