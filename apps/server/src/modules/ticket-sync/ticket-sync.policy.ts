import type { TRouteAccess } from '../../plugins/access';

/** Catalogue "Admin with mspIntegrations (inferred)": the MSP named in the body/query must be the session's. */
export const SYNC_ADMIN: TRouteAccess = { principal: 'technician', tenant: 'session', anyPermission: ['mspIntegrations'] };
