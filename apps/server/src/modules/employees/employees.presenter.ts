import type { TAccountStatus, TEmployee, TPsaMemberCandidate } from '@switchboard/contracts';
import type { TPsaMemberRow, TTechnicianWithRole } from './employees.repository';
import { hasEnrolledTotp } from '../auth/two-factor.service';

/** Decision 019: a password makes the account Active; without one, an open invitation makes it Invited. */
export function accountStatusOf(user: Pick<TTechnicianWithRole['user'], 'passwordHash'>, hasOpenInvitation: boolean): TAccountStatus {
  if (user.passwordHash !== null) return 'Active';
  return hasOpenInvitation ? 'Invited' : 'No account';
}

export function presentEmployee({ user, roleName, hasOpenInvitation }: TTechnicianWithRole): TEmployee {
  return {
    id: user.id,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phone,
    roleId: user.roleId,
    roleName: roleName ?? '',
    tierLevel: user.tierLevel,
    psaMemberId: user.psaMemberId,
    isActive: user.isActive,
    accountStatus: accountStatusOf(user, hasOpenInvitation),
    hasAuthenticatorApp: hasEnrolledTotp(user),
  };
}

export function presentPsaMemberCandidate(row: TPsaMemberRow): TPsaMemberCandidate {
  return { psaMemberId: row.externalId, identifier: row.identifier, firstName: row.firstName, lastName: row.lastName, email: row.email };
}
