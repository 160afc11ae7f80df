import { describe, expect, it } from 'vitest';
import type { TLastUiState } from '../../../lib/local-storage';
import { panelsStartOpen, restoreUiState, technicianScreenForPath } from './restore-ui-state';

const saved: TLastUiState = { activeTab: 'admin', currentOption: 'roles', navOption: 'tickets', introScreen: true };

describe('restoreUiState (R-031, R-032)', () => {
  it('selects the admin tab on /admin', () => {
    expect(restoreUiState('/admin', null)).toEqual({ activeTab: 'admin', currentOption: 'employees', navOption: 'employees', introScreen: false });
    expect(restoreUiState('/admin', { ...saved, activeTab: 'iTAgent' }).activeTab).toBe('admin');
  });

  // Bug: the sync screen's path (`/{msp}/admin/board/sync`) reset the saved state to the defaults when it opened in the shell.
  it("keeps the saved state and selects the admin tab on an MSP's routed admin screen", () => {
    expect(restoreUiState('/northwind/admin/board/sync', { ...saved, activeTab: 'iTAgent' })).toEqual({ ...saved, activeTab: 'admin' });
  });

  it('restores the saved state on a /dashboard/ path', () => {
    expect(restoreUiState('/northwind/dashboard/1/tickets', saved)).toEqual(saved);
  });

  it('defaults to iTAgent and employees without a saved state', () => {
    expect(restoreUiState('/northwind/dashboard/1', null)).toEqual({ activeTab: 'iTAgent', currentOption: 'employees', navOption: 'employees', introScreen: false });
  });

  it('defaults to copilots on a /rewst/ path outside the dashboard', () => {
    expect(restoreUiState('/rewst/setup', null).navOption).toBe('copilots');
    expect(restoreUiState('/rewst/dashboard/1', null).navOption).toBe('employees');
  });
});

describe('technicianScreenForPath (R-027 with R-032 as stored)', () => {
  it('names the queue at …/dashboard/{id}/tickets, where sign-in lands, and the Overview elsewhere', () => {
    expect(technicianScreenForPath('/northwind/dashboard/5f1e/tickets')).toBe('tickets');
    expect(technicianScreenForPath('/northwind/dashboard/5f1e/tickets/')).toBe('tickets');
    expect(technicianScreenForPath('/northwind/dashboard/5f1e')).toBe('overview');
    expect(technicianScreenForPath('/northwind/admin/board/sync')).toBe('overview');
    expect(technicianScreenForPath('/tickets/dashboard')).toBe('overview');
  });
});

describe('panelsStartOpen (decisions #13)', () => {
  it('opens panels only above 1023 px', () => {
    expect(panelsStartOpen(1024)).toBe(true);
    expect(panelsStartOpen(1023)).toBe(false);
    expect(panelsStartOpen(390)).toBe(false);
  });
});
