import { beforeEach, describe, expect, it } from 'vitest';
import type { TSessionUser } from '@switchboard/contracts';
import {
  STORAGE_KEYS,
  loadLastActiveUser,
  loadLastActiveUserType,
  loadLastUiState,
  saveLastActiveUser,
  saveLastActiveUserType,
  saveLastUiState,
} from './local-storage';
import { buildAdminTechnician } from '../test/build-session-user';

const technician: TSessionUser = buildAdminTechnician({ phoneNumber: '5551234567' });

beforeEach(() => window.localStorage.clear());

describe('lastActiveUser (R-046)', () => {
  it('never stores a password or hash, even when the object handed over carries one', async () => {
    const leaky = { ...technician, password: 'Secret!234', passwordHash: '$argon2id$...' } as TSessionUser;
    saveLastActiveUser(leaky);
    const raw = window.localStorage.getItem(STORAGE_KEYS.lastActiveUser) ?? '';
    expect(raw).not.toMatch(/Secret!234|argon2|password/i);
    expect(await loadLastActiveUser()).toEqual(technician);
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
