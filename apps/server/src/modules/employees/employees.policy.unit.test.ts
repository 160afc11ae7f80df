import { describe, expect, it } from 'vitest';
import { wouldRemoveLastRoleManager } from './employees.policy';

describe('wouldRemoveLastRoleManager', () => {
  it('refuses to take roleManagement from the only active holder', () => {
    expect(wouldRemoveLastRoleManager({ holdsNow: true, holdsAfter: false, otherActiveRoleManagers: 0 })).toBe(true);
  });

  it('allows it while someone else holds it, or when the person keeps it or never had it', () => {
    expect(wouldRemoveLastRoleManager({ holdsNow: true, holdsAfter: false, otherActiveRoleManagers: 1 })).toBe(false);
    expect(wouldRemoveLastRoleManager({ holdsNow: true, holdsAfter: true, otherActiveRoleManagers: 0 })).toBe(false);
    expect(wouldRemoveLastRoleManager({ holdsNow: false, holdsAfter: false, otherActiveRoleManagers: 0 })).toBe(false);
  });
});
