import { ADMIN_OPTIONS, canOpenAdminOption } from '@switchboard/contracts';
import type { TAdminOption, TPermissionMap } from '@switchboard/contracts';
import type { TLastUiState } from '../../lib/local-storage';

export const ADMIN_OPTION_LABELS: Record<TAdminOption, string> = {
  employees: 'Employees',
  roles: 'Roles',
  'msp-integrations': 'MSP integrations',
  'client-integrations': 'Client integrations',
  branding: 'Branding',
  companies: 'Companies',
  contacts: 'Contacts',
  board: 'Board',
  teams: 'Teams',
  'activity-log': 'Activity log',
};

/** Admin options whose screens are built; the others arrive with later issues and are not shown until then. */
export const ADMIN_OPTIONS_WITH_SCREENS: ReadonlySet<TAdminOption> = new Set<TAdminOption>([
  'employees',
  'roles',
  'msp-integrations',
  'board',
  'teams',
  'client-integrations',
  'branding',
  'companies',
  'contacts',
  'activity-log',
]);

export function isAdminOption(value: string | null): value is TAdminOption {
  return value !== null && (ADMIN_OPTIONS as readonly string[]).includes(value);
}

/** The admin options this user sees, in spec order (01 §2), gated by 01 §6. */
export function visibleAdminOptions(permissions: Partial<TPermissionMap>): TAdminOption[] {
  return ADMIN_OPTIONS.filter((option) => ADMIN_OPTIONS_WITH_SCREENS.has(option) && canOpenAdminOption(option, permissions));
}

/**
 * 01 §2 / R-126, R-127: choosing an option makes it current and switches to the admin tab; it
 * returns null (nothing happens) when the option is already current or not permitted.
 */
export function chooseAdminOption(
  state: TLastUiState,
  option: TAdminOption,
  permissions: Partial<TPermissionMap>,
): TLastUiState | null {
  // An option is "current" only while the admin tab shows it; from the iTAgent tab it switches back.
  if (state.currentOption === option && state.activeTab === 'admin') return null;
  if (!ADMIN_OPTIONS_WITH_SCREENS.has(option) || !canOpenAdminOption(option, permissions)) return null;
  return { ...state, currentOption: option, activeTab: 'admin' };
}
