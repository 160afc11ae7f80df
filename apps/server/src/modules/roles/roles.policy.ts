import type { TRoleRow } from './roles.repository';

/** Built-in roles (Admin, Technician, Client) are read-only: every MSP relies on them existing as shipped. */
export function isRoleChangeable(role: Pick<TRoleRow, 'custom'>): boolean {
  return role.custom;
}
