import { permissionMap, type TMspDomainChoice, type TSessionAccount, type TSessionMspUser } from '@switchboard/contracts';
import type { TAuthContext } from '../../plugins/auth-context';
import type { TMspRow, TUserWithTenant } from './auth.repository';
import { logoUrlOf } from '../msp/msp.presenter';

export function presentMspDomainChoice(msp: TMspRow): TMspDomainChoice {
  return { mspCustomDomain: msp.customDomain, mspName: msp.name, logoUrl: logoUrlOf(msp) };
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

type TUserContext = Extract<TAuthContext, { principal: 'user' }>;
type TAccountContext = Extract<TAuthContext, { principal: 'account' }>;

/** The session check's user: identity and permissions from the auth context, names from the narrow details row. */
export function presentSessionUserOfContext(
  auth: TUserContext,
  details: { firstName: string; lastName: string; phone: string; tierLevel: TSessionMspUser['tierLevel']; psaMemberId: string | null; psaContactId: string | null; mspName: string; roleName: string | null },
): TSessionMspUser {
  return {
    principal: 'user',
    id: auth.userId,
    userKind: auth.userKind,
    mspCustomDomain: auth.mspCustomDomain,
    mspName: details.mspName,
    firstName: details.firstName,
    lastName: details.lastName,
    email: auth.email,
    phoneNumber: details.phone,
    roleId: auth.roleId,
    roleName: details.roleName ?? '',
    permissions: auth.permissions,
    tierLevel: details.tierLevel,
    psaMemberId: details.psaMemberId,
    psaCompanyId: auth.psaCompanyId,
    psaContactId: details.psaContactId,
    clientsAutopilotDbid: auth.companyRowId,
  };
}

export function presentSessionAccountOfContext(auth: TAccountContext, details: { firstName: string; lastName: string; phone: string; companyName: string | null }): TSessionAccount {
  return {
    principal: 'account',
    id: auth.accountId,
    accountKind: auth.accountKind,
    firstName: details.firstName,
    lastName: details.lastName,
    email: auth.email,
    phoneNumber: details.phone,
    companyName: details.companyName,
  };
}
