import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, permissionMap } from '@switchboard/contracts';
import type { TLastUiState } from '../../lib/local-storage';
import { chooseAdminOption, visibleAdminOptions } from './admin-options';

const onITAgent: TLastUiState = { activeTab: 'iTAgent', currentOption: 'employees', navOption: 'employees', introScreen: false };

describe('visibleAdminOptions (01 §6)', () => {
  it('shows employees, roles, board and teams, in spec order, to a user with every permission', () => {
    expect(visibleAdminOptions(ALL_PERMISSIONS)).toEqual(['employees', 'roles', 'board', 'teams']);
  });

  it('gates employees and teams by technicianUserManagement', () => {
    expect(visibleAdminOptions(permissionMap(['technicianUserManagement']))).toEqual(['employees', 'teams']);
    expect(visibleAdminOptions(permissionMap(['roleManagement']))).toEqual(['roles']);
  });

  it('shows board only with boardView (R-133): the built-in Technician has it, the Client role has nothing', () => {
    expect(visibleAdminOptions(BUILT_IN_ROLES.Technician)).toEqual(['board']);
    expect(visibleAdminOptions(permissionMap(['mspIntegrations', 'roleManagement']))).toEqual(['roles']);
    expect(visibleAdminOptions(BUILT_IN_ROLES.Client)).toEqual([]);
  });

  it('does not show options whose screens do not exist yet, even when permitted', () => {
    const visible = visibleAdminOptions(permissionMap(['mspBranding']));
    expect(visible).toEqual([]);
  });
});

describe('chooseAdminOption (R-126, R-127)', () => {
  it('makes the option current and switches to the admin tab', () => {
    expect(chooseAdminOption(onITAgent, 'roles', ALL_PERMISSIONS)).toEqual({ ...onITAgent, activeTab: 'admin', currentOption: 'roles' });
  });

  it('does nothing when the option is already current on the admin tab', () => {
    expect(chooseAdminOption({ ...onITAgent, activeTab: 'admin', currentOption: 'roles' }, 'roles', ALL_PERMISSIONS)).toBeNull();
  });

  it('does nothing without the permission', () => {
    expect(chooseAdminOption(onITAgent, 'roles', permissionMap(['technicianUserManagement']))).toBeNull();
  });
});
