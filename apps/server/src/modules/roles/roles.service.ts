import { MESSAGES, type TPermissionMap, type TRole } from '@switchboard/contracts';
import { USERS_ROLE_FOREIGN_KEY, type TDatabase } from '@switchboard/db';
import type { TAppDeps } from '../../app-deps';
import { AppError, conflict, notFound } from '../../lib/app-error';
import { isForeignKeyViolation, isUniqueViolation } from '../../lib/db-errors';
import { forgetCachedSessions } from '../../plugins/auth-context';
import { leavesARoleManager } from '../employees/last-role-manager';
import { assertMayChangeRole, assertMayGrantRole, isRoleChangeable } from './roles.policy';
import { presentRole } from './roles.presenter';
import { countActiveUsersWithRole, deleteCustomRole, findRole, insertCustomRole, isRoleNameTaken, listRoles, moveInactiveHoldersOfRole, updateCustomRole } from './roles.repository';
import { ensureBuiltInRoles } from './built-in-roles';
import { userAuditFields } from '../../lib/audit';

/** Who is acting, for the tenant scope and the audit trail. */
export interface TRoleActor {
  mspId: string;
  mspCustomDomain: string;
  userId: string;
  /** The actor's own permissions: no role they save or delete may hold more (decision 044). */
  permissions: TPermissionMap;
  ip: string;
  requestId: string;
}

export interface TSaveRoleInput {
  id?: string | undefined;
  name: string;
  permissions: TPermissionMap;
}

const builtInRoleError = () => new AppError('forbidden', MESSAGES.roleBuiltIn);
const roleNameTakenError = () => conflict(MESSAGES.roleNameTaken);

export function createRolesService(deps: Pick<TAppDeps, 'database' | 'audit' | 'caches'>) {
  const db = deps.database.db;
  const { roleLists, sessions: sessionCache } = deps.caches;

  /**
   * After a committed role change: this process's roles list of the MSP, and (when permissions or a
   * role itself changed) its users' cached sessions, which carry their role's permissions.
   */
  function forgetRoles(mspId: string, options: { sessionsToo: boolean }): void {
    roleLists.delete(mspId);
    if (options.sessionsToo) forgetCachedSessions.ofMsp(sessionCache, mspId);
  }

  /** Records a role change through `handle`: the mutation's transaction, or the database for a refusal. */
  const audit = (handle: TDatabase, actor: TRoleActor, action: string, target: string | null, details: Record<string, unknown>, outcome: 'success' | 'failure' = 'success') =>
    deps.audit.record(handle, { ...userAuditFields(actor), action, target, outcome, details });

  /** Runs the role-grant checks of decision 044 (`check`); a refusal is recorded before it leaves, as the module's other refusals are. */
  async function refuseBeyondOwnRights(actor: TRoleActor, action: string, target: string | null, name: string, check: () => void): Promise<void> {
    try {
      check();
    } catch (error) {
      await audit(db, actor, action, target, { name, reason: 'beyond_own_permissions' }, 'failure');
      throw error;
    }
  }

  /** every role of the actor's MSP. */
  async function listForMsp(mspId: string, mspCustomDomain: string): Promise<TRole[]> {
    let rows = roleLists.get(mspId);
    if (!rows) {
      const ticket = roleLists.ticket();
      rows = await listRoles(db, mspId);
      roleLists.set(mspId, rows, ticket);
    }
    return rows.map((row) => presentRole(row, mspCustomDomain));
  }

  /**
   * creates a custom role, or edits one when `id` is given; built-in roles are read-only. Review s29 #1 (decision 044):
   * the saved role holds no permission the actor lacks (a clone is a create, so cloning Admin is refused too), and a role
   * that holds one is not the actor's to edit, or a role manager could raise their own role, or take from richer colleagues.
   */
  async function save(actor: TRoleActor, input: TSaveRoleInput): Promise<TRole> {
    const name = input.name.trim();
    if (input.id === undefined) {
      await refuseBeyondOwnRights(actor, 'role.create', null, name, () => assertMayGrantRole(actor.permissions, input));
      if (await isRoleNameTaken(db, actor.mspId, name)) throw roleNameTakenError();
      try {
        const created = await db.transaction(async (tx) => {
          const row = await insertCustomRole(tx, actor.mspId, name, input.permissions);
          await audit(tx, actor, 'role.create', row.id, { name, permissions: input.permissions });
          return row;
        });
        forgetRoles(actor.mspId, { sessionsToo: false });
        return presentRole(created, actor.mspCustomDomain);
      } catch (error) {
        if (isUniqueViolation(error)) throw roleNameTakenError();
        throw error;
      }
    }
    const existing = await findRole(db, actor.mspId, input.id);
    if (!existing) throw notFound();
    if (!isRoleChangeable(existing)) {
      await audit(db, actor, 'role.update', existing.id, { name: existing.name, reason: 'built_in' }, 'failure');
      throw builtInRoleError();
    }
    await refuseBeyondOwnRights(actor, 'role.update', existing.id, existing.name, () => {
      assertMayChangeRole(actor.permissions, existing);
      assertMayGrantRole(actor.permissions, input);
    });
    if (await isRoleNameTaken(db, actor.mspId, name, existing.id)) throw roleNameTakenError();
    let isLastRoleManager = false;
    try {
      const updated = await db.transaction(async (tx) => {
        // Decision 025: taking Role management out of a role must leave someone active who can still manage roles
        // (else nobody could ever give it back, the editor included); checked under the MSP's role-manager lock, so
        // two such edits at once cannot both pass.
        if (!(await leavesARoleManager(tx, actor.mspId, { kind: 'rolePermissionsChanged', roleId: existing.id, permissions: input.permissions }))) {
          isLastRoleManager = true;
          throw conflict(MESSAGES.roleLastRoleManager);
        }
        const row = await updateCustomRole(tx, actor.mspId, existing.id, name, input.permissions);
        if (!row) throw notFound();
        await audit(tx, actor, 'role.update', row.id, {
          before: { name: existing.name, permissions: existing.permissions },
          after: { name: row.name, permissions: row.permissions },
        });
        return row;
      });
      forgetRoles(actor.mspId, { sessionsToo: true });
      return presentRole(updated, actor.mspCustomDomain);
    } catch (error) {
      // The refusal changed nothing (its transaction rolled back), so it is recorded on its own.
      if (isLastRoleManager) await audit(db, actor, 'role.update', existing.id, { name: existing.name, reason: 'last_role_manager' }, 'failure');
      if (isUniqueViolation(error)) throw roleNameTakenError();
      throw error;
    }
  }

  /**
   * deletes a custom role no active user holds. Its deleted (inactive) holders move to the built-in role of their
   * kind in the same transaction, each move audited (review s29 #3): otherwise the role could not go without restoring
   * them first. The database refuses to delete a role an active user still holds (users_role_fk, ON DELETE RESTRICT),
   * also when a user is being given it at the same moment; that refusal is the spec's "role in use" answer.
   */
  async function remove(actor: TRoleActor, roleId: string): Promise<void> {
    const existing = await findRole(db, actor.mspId, roleId);
    if (!existing) throw notFound();
    if (!isRoleChangeable(existing)) {
      await audit(db, actor, 'role.delete', existing.id, { name: existing.name, reason: 'built_in' }, 'failure');
      throw builtInRoleError();
    }
    await refuseBeyondOwnRights(actor, 'role.delete', existing.id, existing.name, () => assertMayChangeRole(actor.permissions, existing));
    let isDeleted: boolean;
    try {
      isDeleted = await db.transaction(async (tx) => {
        const builtIn = await ensureBuiltInRoles(tx, actor.mspId);
        const moved = await moveInactiveHoldersOfRole(tx, actor.mspId, existing.id, { technician: builtIn.Technician, client: builtIn.Client });
        if (!(await deleteCustomRole(tx, actor.mspId, existing.id))) return false;
        await audit(tx, actor, 'role.delete', existing.id, { name: existing.name, permissions: existing.permissions, movedInactiveHolders: moved.length });
        for (const user of moved) {
          const after = { roleId: user.roleId, roleName: user.kind === 'client' ? 'Client' : 'Technician' };
          await deps.audit.record(tx, {
            ...userAuditFields(actor),
            action: 'user.role_change',
            target: user.id,
            outcome: 'success',
            details: { kind: user.kind, before: { roleId: existing.id, roleName: existing.name }, after, reason: 'role_deleted' },
          });
        }
        return true;
      });
    } catch (error) {
      if (!isForeignKeyViolation(error, USERS_ROLE_FOREIGN_KEY)) throw error;
      const holders = await countActiveUsersWithRole(db, actor.mspId, existing.id);
      await audit(db, actor, 'role.delete', existing.id, { name: existing.name, reason: 'in_use', holders }, 'failure');
      throw conflict(MESSAGES.roleInUse(holders));
    }
    // Deleted by a concurrent request between the lookup and the delete.
    if (!isDeleted) throw notFound();
    forgetRoles(actor.mspId, { sessionsToo: true });
  }

  return { listForMsp, save, remove };
}
