import { permissionMap, type TRole } from '@switchboard/contracts';
import type { TRoleRow } from './roles.repository';

/** Role row → A-013 role; missing flags read as false so the map is always complete. */
export function presentRole(row: TRoleRow, mspCustomDomain: string): TRole {
  return {
    id: row.id,
    name: row.name,
    custom: row.custom,
    permissions: { ...permissionMap([]), ...row.permissions },
    mspCustomDomain,
  };
}
