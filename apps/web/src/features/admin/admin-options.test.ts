import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, permissionMap } from '@switchboard/contracts';
import type { TLastUiState } from '../../lib/local-storage';
import { chooseAdminOption, visibleAdminOptions } from './admin-options';

const onITAgent: TLastUiState = { activeTab: 'iTAgent', currentOption: 'employees', navOption: 'employees', introScreen: false };

describe('visibleAdminOptions (01 §6)', () => {
  it('shows an admin every built option but contacts, in spec order, the activity log last', () => {
    expect(visibleAdminOptions(ALL_PERMISSIONS)).toEqual(['employees', 'roles', 'msp-integrations', 'client-integrations', 'branding', 'companies', 'board', 'teams', 'activity-log']);
  });

  it('gates employees, companies and teams by technicianUserManagement; contacts only without it and with clientUserManagement (decisions 12)', () => {
    expect(visibleAdminOptions(permissionMap(['technicianUserManagement']))).toEqual(['employees', 'companies', 'teams']);
    expect(visibleAdminOptions(permissionMap(['technicianUserManagement', 'clientUserManagement']))).toEqual(['employees', 'companies', 'teams']);
    expect(visibleAdminOptions(permissionMap(['roleManagement']))).toEqual(['roles', 'activity-log']);
    expect(visibleAdminOptions(permissionMap(['roleManagement', 'clientUserManagement']))).toEqual(['roles', 'contacts', 'activity-log']);
  });

  it('shows board only with boardView (R-133); the built-in Technician and Client roles cannot read contacts, so they are not offered', () => {
    expect(visibleAdminOptions(BUILT_IN_ROLES.Technician)).toEqual(['board']);
    expect(visibleAdminOptions(permissionMap(['mspIntegrations', 'roleManagement']))).toEqual(['roles', 'msp-integrations', 'activity-log']);
    expect(visibleAdminOptions(BUILT_IN_ROLES.Client)).toEqual([]);
  });

  it('shows MSP integrations (the PSA connection and the setup wizard) with mspIntegrations', () => {
    expect(visibleAdminOptions(permissionMap(['mspIntegrations']))).toEqual(['msp-integrations']);
    expect(visibleAdminOptions(permissionMap(['mspIntegrations', 'clientUserManagement']))).toEqual(['msp-integrations', 'contacts']);
    expect(visibleAdminOptions(permissionMap(['technicianUserManagement', 'mspBranding', 'boardView']))).toEqual(['employees', 'branding', 'companies', 'board', 'teams']);
  });

  it('shows the activity log with adminPortal or roleManagement', () => {
    expect(visibleAdminOptions(permissionMap(['adminPortal', 'technicianUserManagement']))).toEqual(['employees', 'companies', 'teams', 'activity-log']);
    expect(visibleAdminOptions(permissionMap(['technicianUserManagement']))).toEqual(['employees', 'companies', 'teams']);
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
