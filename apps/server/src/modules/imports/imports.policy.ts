import type { TRouteAccess } from '../../plugins/access';

/** Catalogue "Admin with mspIntegrations (inferred)" for every Imports/streams call. */
export const IMPORT_ADMIN_BY_QUERY: TRouteAccess = { principal: 'technician', tenant: 'query', anyPermission: ['mspIntegrations'] };
export const IMPORT_ADMIN_BY_PATH: TRouteAccess = { principal: 'technician', tenant: 'path', anyPermission: ['mspIntegrations'] };
/** A-056 names its MSP in the body. */
export const IMPORT_ADMIN_BY_SESSION: TRouteAccess = { principal: 'technician', tenant: 'session', anyPermission: ['mspIntegrations'] };
