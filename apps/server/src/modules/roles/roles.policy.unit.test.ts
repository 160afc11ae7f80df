import { describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, BUILT_IN_ROLES, MESSAGES, permissionMap } from '@switchboard/contracts';
import { AppError } from '../../lib/app-error';
import { assertMayGrantRole, grantsNoMoreThan } from './roles.policy';

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

describe('assertMayGrantRole', () => {
  it('refuses a role with one permission the actor lacks, with a 403 in plain words', () => {
    const actor = permissionMap(['technicianUserManagement']);
    let refusal: unknown;
    try {
      assertMayGrantRole(actor, { permissions: permissionMap(['technicianUserManagement', 'roleManagement']) });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ code: 'forbidden', statusCode: 403, detail: MESSAGES.roleGrantTooBroad });
  });

  it('allows a role within the actor permissions, an empty one included', () => {
    const actor = permissionMap(['technicianUserManagement', 'boardView']);
    expect(() => assertMayGrantRole(actor, { permissions: permissionMap(['boardView']) })).not.toThrow();
    expect(() => assertMayGrantRole(actor, { permissions: permissionMap([]) })).not.toThrow();
  });
});
