import { ALL_PERMISSIONS } from '@switchboard/contracts';
import type { TSessionMspUser } from '@switchboard/contracts';

/** A signed-in MSP user for component tests: an Admin technician unless overridden. */
export function buildAdminTechnician(overrides: Partial<TSessionMspUser> = {}): TSessionMspUser {
  return {
    principal: 'user',
    id: '5f1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11',
    userKind: 'technician',
    mspCustomDomain: 'northwind',
    mspName: 'Northwind IT',
    firstName: 'Jane',
    lastName: 'Doe',
    email: 'jane@northwind-it.example',
    phoneNumber: '',
    roleId: '0c2f6f8e-1d3c-4a4e-8f55-5c2b6a1d9e00',
    roleName: 'Admin',
    permissions: ALL_PERMISSIONS,
    tierLevel: 'Tier1',
    psaMemberId: null,
    psaCompanyId: null,
    psaContactId: null,
    clientsAutopilotDbid: null,
    ...overrides,
  };
}
