import { permissionMap, type TMspDomainChoice, type TSessionAccount, type TSessionMspUser } from '@switchboard/contracts';
import type { TAccountRow, TMspRow, TUserWithTenant } from './auth.repository';

/** The public URL of an MSP's logo, or null when it has none. */
export function mspLogoUrl(msp: TMspRow): string | null {
  return msp.logoPath ? `/db/msp/${encodeURIComponent(msp.customDomain)}/logo` : null;
}

export function presentMspDomainChoice(msp: TMspRow): TMspDomainChoice {
  return { mspCustomDomain: msp.customDomain, mspName: msp.name, logoUrl: mspLogoUrl(msp) };
}

/** Row → session user; a user whose role vanished gets no permissions (fail closed). */
export function presentSessionMspUser({ user, msp, role }: TUserWithTenant): TSessionMspUser {
  return {
    principal: 'user',
    id: user.id,
    userKind: user.kind,
    mspCustomDomain: msp.customDomain,
    mspName: msp.name,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phone,
    roleId: user.roleId,
    roleName: role?.name ?? '',
    permissions: role ? { ...permissionMap([]), ...role.permissions } : permissionMap([]),
    tierLevel: user.tierLevel,
    psaMemberId: user.psaMemberId,
    psaCompanyId: user.psaCompanyId,
    psaContactId: user.psaContactId,
    clientsAutopilotDbid: user.companyRowId,
  };
}

export function presentSessionAccount(account: TAccountRow): TSessionAccount {
  return {
    principal: 'account',
    id: account.id,
    accountKind: account.kind,
    firstName: account.firstName,
    lastName: account.lastName,
    email: account.email,
    phoneNumber: account.phone,
    companyName: account.companyName,
  };
}
