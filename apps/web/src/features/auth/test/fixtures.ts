import { ALL_PERMISSIONS, permissionMap } from '@switchboard/contracts';
import type { TMspProfile, TSessionMspUser } from '@switchboard/contracts';

export const NORTHWIND_PROFILE: TMspProfile = {
  mspName: 'Northwind IT',
  customDomain: 'northwind',
  companyPhoneNumber: '2065550199',
  webSiteUrl: 'https://northwind-it.example',
  logoUrl: null,
  brand: { primaryColour: '#1c7ed6', primaryButtonColour: '#1c7ed6', secondaryButtonColour: '#868e96' },
};

export function buildSessionMspUser(overrides: Partial<TSessionMspUser> = {}): TSessionMspUser {
  return {
    principal: 'user',
    id: '7d7c1f36-3c3a-4a55-9a55-0d3b4f0f2a11',
    userKind: 'client',
    mspCustomDomain: 'northwind',
    mspName: 'Northwind IT',
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@contoso.example',
    phoneNumber: '2065550123',
    roleId: '0b6d1c2e-9f0a-4c1e-8a55-3d2f1e0c9b77',
    roleName: 'Client',
    permissions: overrides.userKind === 'technician' ? ALL_PERMISSIONS : permissionMap(['clientDocuments']),
    tierLevel: null,
    psaMemberId: null,
    psaCompanyId: '19',
    psaContactId: '230',
    clientsAutopilotDbid: null,
    ...overrides,
  };
}
