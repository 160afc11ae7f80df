import { beforeEach, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS } from '@switchboard/contracts';
import type { TSessionUser } from '@switchboard/contracts';
import {
  STORAGE_KEYS,
  clearAllClientState,
  loadLastActiveUser,
  loadLastActiveUserType,
  loadLastUiState,
  saveLastActiveUser,
  saveLastActiveUserType,
  saveLastUiState,
} from './local-storage';

const technician: TSessionUser = {
  principal: 'user',
  id: '5f1e8a4e-7d7b-4a53-9a6f-2d1e0c7b9a11',
  userKind: 'technician',
  mspCustomDomain: 'northwind',
  mspName: 'Northwind IT',
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@northwind-it.example',
  phoneNumber: '5551234567',
  roleId: '0c2f6f8e-1d3c-4a4e-8f55-5c2b6a1d9e00',
  roleName: 'Admin',
  permissions: ALL_PERMISSIONS,
  tierLevel: 'Tier1',
  psaMemberId: null,
  psaCompanyId: null,
  psaContactId: null,
  clientsAutopilotDbid: null,
};

beforeEach(() => window.localStorage.clear());

describe('lastActiveUser (R-046)', () => {
  it('never stores a password or hash, even when the object handed over carries one', () => {
    const leaky = { ...technician, password: 'Secret!234', passwordHash: '$argon2id$...' } as TSessionUser;
    saveLastActiveUser(leaky);
    const raw = window.localStorage.getItem(STORAGE_KEYS.lastActiveUser) ?? '';
    expect(raw).not.toMatch(/Secret!234|argon2|password/i);
    expect(loadLastActiveUser()).toEqual(technician);
  });
});

describe('lastActiveUserType (R-049)', () => {
  it("defaults to 'client' and keeps a saved 'tech'", () => {
    expect(loadLastActiveUserType()).toBe('client');
    saveLastActiveUserType('tech');
    expect(loadLastActiveUserType()).toBe('tech');
    window.localStorage.setItem(STORAGE_KEYS.lastActiveUserType, '"manager"');
    expect(loadLastActiveUserType()).toBe('client');
  });
});

describe('lastUiState (R-047)', () => {
  it('round-trips the four fields and ignores a malformed value', () => {
    saveLastUiState({ currentOption: 'roles', navOption: 'employees', activeTab: 'admin', introScreen: true });
    expect(loadLastUiState()).toEqual({ currentOption: 'roles', navOption: 'employees', activeTab: 'admin', introScreen: true });
    window.localStorage.setItem(STORAGE_KEYS.lastUiState, '{not json');
    expect(loadLastUiState()).toBeNull();
  });
});

describe('clearAllClientState (R-109)', () => {
  it('empties local and session storage and expires script-visible cookies', () => {
    saveLastActiveUser(technician);
    window.sessionStorage.setItem('draft', 'x');
    document.cookie = 'clientId=abc; path=/';
    document.cookie = 'authMethod=microsoft; path=/';
    clearAllClientState();
    expect(window.localStorage.length).toBe(0);
    expect(window.sessionStorage.length).toBe(0);
    expect(document.cookie).toBe('');
  });
});
