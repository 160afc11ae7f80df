import type { TClientUser } from '@switchboard/contracts';
import type { TClientUserRow } from './client-users.repository';
import { hasEnrolledTotp } from '../auth/two-factor.service';

export function presentClientUser({ user, roleName }: TClientUserRow): TClientUser {
  return {
    id: user.id,
    email: user.email,
    roleId: user.roleId,
    roleName: roleName ?? '',
    firstName: user.firstName,
    lastName: user.lastName,
    phoneNumber: user.phone,
    psaContactId: user.psaContactId,
    psaCompanyId: user.psaCompanyId,
    isActive: user.isActive,
    hasAuthenticatorApp: hasEnrolledTotp(user),
  };
}
