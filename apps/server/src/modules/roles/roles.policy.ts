import { grantsNoMoreThan, MESSAGES, type TPermissionMap } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import type { TRoleRow } from './roles.repository';

/** Built-in roles (Admin, Technician, Client) are read-only: every MSP relies on them existing as shipped. */
export function isRoleChangeable(role: Pick<TRoleRow, 'custom'>): boolean {
  return role.custom;
}

export { grantsNoMoreThan };

/**
 * THE role-grant rule (issue #6 §2b): nobody hands out a role holding a permission they do not
 * hold themselves, so a user manager cannot mint an Admin (or any account richer than their own,
 * whose password they would know) and sign in as it. Every path that assigns a role a person
 * chose calls this: adding a technician, editing a technician or client, and later team import.
 * Exempt by design, because the system and not a person picks the role: the bootstrap-token
 * first technician (the MSP's first Admin, decisions #6) and self-activation (always the MSP's
 * built-in Technician or Client role; the request cannot name one).
 */
export function assertMayGrantRole(actorPermissions: TPermissionMap, role: Pick<TRoleRow, 'permissions'>): void {
  if (!grantsNoMoreThan(role.permissions, actorPermissions)) throw new AppError('forbidden', MESSAGES.roleGrantTooBroad);
}

/**
 * The other half of the role-grant rule (review s26 #2): nobody deletes, restores or changes the role of someone whose
 * CURRENT role holds a permission they lack, so a user manager cannot deactivate, bring back or demote an Admin; nor,
 * for MSP staff, change anything else of theirs: tier, names, phone, PSA link, invitation (decision 044).
 */
export function assertMayActOnHolderOf(actorPermissions: TPermissionMap, targetRole: Pick<TRoleRow, 'permissions'>): void {
  if (!grantsNoMoreThan(targetRole.permissions, actorPermissions)) throw new AppError('forbidden', MESSAGES.roleTargetTooBroad);
}

/**
 * Roles themselves follow the same rule (review s29 #1, decision 044): nobody edits or deletes a role holding a permission
 * they lack (which would change, or take from, people richer than themselves), and a role saved (created, edited or cloned)
 * must hold no permission the actor lacks, or a role manager could give their own role, or a colleague's, anything.
 */
export function assertMayChangeRole(actorPermissions: TPermissionMap, role: Pick<TRoleRow, 'permissions'>): void {
  if (!grantsNoMoreThan(role.permissions, actorPermissions)) throw new AppError('forbidden', MESSAGES.roleChangeTooBroad);
}
