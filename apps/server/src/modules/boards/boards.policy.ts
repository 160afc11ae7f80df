import type { TPsaType } from '@switchboard/contracts';
import type { TRouteAccess } from '../../plugins/access';

/** Catalogue "Admin with boardView or mspIntegrations" (A-023, A-030, A-034, A-047…A-052). */
const BOARD_PERMISSIONS = ['boardView', 'mspIntegrations'] as const;
export const BOARD_ADMIN: TRouteAccess = { principal: 'technician', tenant: 'query', anyPermission: BOARD_PERMISSIONS };
export const BOARD_ADMIN_BY_PATH: TRouteAccess = { principal: 'technician', tenant: 'path', anyPermission: BOARD_PERMISSIONS };
/** Calls that name no MSP (A-023's first segment is a template; A-052's body is a board): the session's MSP. */
export const BOARD_ADMIN_BY_SESSION: TRouteAccess = { principal: 'technician', tenant: 'session', anyPermission: BOARD_PERMISSIONS };
/** any signed-in user of the MSP (ticket creation needs the categorisation). */
export const ANY_USER_OF_PATH_MSP: TRouteAccess = { principal: 'user', tenant: 'path' };

export interface TBoardCapabilities {
  types: boolean;
  subTypes: boolean;
  statuses: boolean;
  boards: boolean;
}

/**
 * What the PSA lets the board editor create (decisions #17: Autotask queues, statuses, issue and
 * sub-issue types are picklists, so the editor maps to existing values there).
 */
// packages/psa has no capability flags in this tree yet; branch on the PSA type until it does.
export function boardCapabilities(psaType: TPsaType): TBoardCapabilities {
  const canCreate = psaType === 'CONNECTWISE';
  return { types: canCreate, subTypes: canCreate, statuses: canCreate, boards: canCreate };
}
