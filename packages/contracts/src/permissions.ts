/** The 12 permission flags of spec 02 §3, in the spec's order. */
export const PERMISSIONS = [
  'clientBilling',
  'mspBilling',
  'clientUserManagement',
  'technicianUserManagement',
  'clientIntegrations',
  'mspBranding',
  'mspIntegrations',
  'clientDocuments',
  'mspDocuments',
  'adminPortal',
  'boardView',
  'roleManagement',
] as const;

export type TPermission = (typeof PERMISSIONS)[number];

/** A role's permission map: every flag present, each a boolean (schema: ZPermissionMap). */
export type TPermissionMap = { [P in TPermission]: boolean };

export function permissionMap(granted: readonly TPermission[]): TPermissionMap {
  return Object.fromEntries(PERMISSIONS.map((p) => [p, granted.includes(p)])) as TPermissionMap;
}

export const ALL_PERMISSIONS: TPermissionMap = permissionMap(PERMISSIONS);

/**
 * True when every permission the role holds, the actor holds too: the rule for handing out a role and for acting on
 * its holders (the server's roles.policy; the Employees screen hides what the server would refuse, decision 044).
 */
export function grantsNoMoreThan(role: Partial<TPermissionMap>, actor: TPermissionMap): boolean {
  return PERMISSIONS.every((permission) => role[permission] !== true || actor[permission]);
}

/** Built-in roles every MSP gets (decisions.md #6: Admin has all 12). */
export const BUILT_IN_ROLES = {
  Admin: ALL_PERMISSIONS,
  Technician: permissionMap(['boardView', 'clientDocuments', 'mspDocuments']),
  Client: permissionMap(['clientDocuments']),
} as const satisfies Record<string, TPermissionMap>;

export type TBuiltInRoleName = keyof typeof BUILT_IN_ROLES;

/** Admin area options in spec order (01 §2) with their gate (01 §6). */
export const ADMIN_OPTIONS = [
  'employees',
  'roles',
  'msp-integrations',
  'client-integrations',
  'branding',
  'companies',
  'contacts',
  'board',
  'teams',
  // Beyond the spec (issue #8): the activity log over the audit events.
  'activity-log',
] as const;
export type TAdminOption = (typeof ADMIN_OPTIONS)[number];

/** Whether a user with these permissions may open an admin option (01 §6 table; decisions #12 for contacts). */
export function canOpenAdminOption(option: TAdminOption, permissions: Partial<TPermissionMap>): boolean {
  switch (option) {
    case 'employees':
    case 'companies':
    case 'teams':
      return permissions.technicianUserManagement === true;
    case 'roles':
      return permissions.roleManagement === true;
    case 'msp-integrations':
      return permissions.mspIntegrations === true;
    case 'client-integrations':
      return permissions.clientIntegrations === true;
    case 'branding':
      return permissions.mspBranding === true;
    case 'board':
      return permissions.boardView === true;
    case 'contacts':
      // 01 §6 shows it only without technicianUserManagement; decisions 12: its calls need clientUserManagement.
      return permissions.technicianUserManagement !== true && permissions.clientUserManagement === true;
    case 'activity-log':
      return permissions.adminPortal === true || permissions.roleManagement === true;
  }
}
