import type { TMspProfile, TTechnicianRecord } from '@switchboard/contracts';
import { logoVersionOf } from './logo-file';
import type { TMspRow, TUserRow } from './msp.repository';

/** Public URL of the MSP's logo; the path is served by GET /db/msp/{customDomain}/logo. */
export function logoUrlOf(msp: Pick<TMspRow, 'customDomain' | 'logoPath'>): string | null {
  if (!msp.logoPath) return null;
  // A changed logo's URL carries its version: the logo is cached for 5 minutes, and a new one must show at once.
  const version = logoVersionOf(msp.logoPath);
  return `/db/msp/${encodeURIComponent(msp.customDomain)}/logo${version ? `?v=${version}` : ''}`;
}

export function presentBrand(msp: TMspRow): TMspProfile['brand'] {
  return { primaryColour: msp.primaryColour, primaryButtonColour: msp.primaryButtonColour, secondaryButtonColour: msp.secondaryButtonColour };
}

/** A-020: what anyone may see about an MSP (its login page shows it before sign-in). */
export function presentMspProfile(msp: TMspRow): TMspProfile {
  return {
    mspName: msp.name,
    customDomain: msp.customDomain,
    companyPhoneNumber: msp.phone,
    webSiteUrl: msp.websiteUrl,
    logoUrl: logoUrlOf(msp),
    brand: presentBrand(msp),
  };
}

export function presentTechnician(user: TUserRow, mspCustomDomain: string, roleName: string): TTechnicianRecord {
  return {
    id: user.id,
    userKind: 'technician',
    mspCustomDomain,
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phoneNumber: user.phone,
    roleId: user.roleId,
    roleName,
    tierLevel: user.tierLevel,
    psaMemberId: user.psaMemberId,
  };
}
