import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, permissionMap } from '@switchboard/contracts';
import { grantsNoMoreThan } from './profile.policy';

describe('grantsNoMoreThan', () => {
  it('lets an Admin hand out any role', () => {
    for (const role of Object.values(BUILT_IN_ROLES)) expect(grantsNoMoreThan(role, ALL_PERMISSIONS)).toBe(true);
  });

  it('stops a client-user manager from handing out Admin, but not a role within their rights', () => {
    const manager = permissionMap(['clientUserManagement', 'clientDocuments']);
    expect(grantsNoMoreThan(BUILT_IN_ROLES.Admin, manager)).toBe(false);
    expect(grantsNoMoreThan(BUILT_IN_ROLES.Client, manager)).toBe(true);
  });
});
