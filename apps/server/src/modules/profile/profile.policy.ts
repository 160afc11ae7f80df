import type { TPermission } from '@switchboard/contracts';
import type { TAuthContext } from '../../plugins/auth-context';
import type { TMspUserKind } from '../auth/auth.repository';

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;

/** decisions #11: technicians are managed with technicianUserManagement, clients with clientUserManagement. */
export const MANAGEMENT_PERMISSION: Record<TMspUserKind, TPermission> = {
  technician: 'technicianUserManagement',
  client: 'clientUserManagement',
};

export function canManageUsersOfKind(auth: TUserContext, kind: TMspUserKind): boolean {
  return auth.permissions[MANAGEMENT_PERMISSION[kind]] === true;
}

/** A user may read and edit their own record; anyone else's needs the management permission. */
export function canAccessUser(auth: TUserContext, target: { id: string; kind: TMspUserKind }): boolean {
  return auth.userId === target.id || canManageUsersOfKind(auth, target.kind);
}
