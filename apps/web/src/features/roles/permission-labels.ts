import type { TPermission } from '@switchboard/contracts';

/** Readable names for the 12 permission flags of 02 §3. */
export const PERMISSION_LABELS: Record<TPermission, string> = {
  clientBilling: 'Client billing',
  mspBilling: 'MSP billing',
  clientUserManagement: 'Client user management',
  technicianUserManagement: 'Technician user management',
  clientIntegrations: 'Client integrations',
  mspBranding: 'MSP branding',
  mspIntegrations: 'MSP integrations',
  clientDocuments: 'Client documents',
  mspDocuments: 'MSP documents',
  adminPortal: 'Admin portal',
  boardView: 'Board view',
  roleManagement: 'Role management',
};
