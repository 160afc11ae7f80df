import type { TEmployee, TPsaMemberCandidate } from '@switchboard/contracts';
import type { TPsaMemberRow, TTechnicianWithRole } from './employees.repository';

export function presentEmployee({ user, roleName }: TTechnicianWithRole): TEmployee {
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
  };
}

export function presentPsaMemberCandidate(row: TPsaMemberRow): TPsaMemberCandidate {
  return { psaMemberId: row.externalId, identifier: row.identifier, firstName: row.firstName, lastName: row.lastName, email: row.email };
}
